import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { devUser } from '../../../apps/api/src/dev-idp/dev-token.ts';
import { spawnApiProcess, startLine } from '../../../apps/api/test/support/api-process.ts';

/** The development user whose id the started app makes a super admin. */
export const ADMIN_USERNAME = 'admin';

/** A real api process serving the built web app on a free port, with its own data directory. */
export interface RunningApp {
  url: string;
  /** The app's data directory (its SQLite database is `canopy.db` inside). */
  dataDir: string;
  output: () => string;
  /**
   * The login gateway's bound ports, from the api's start-up line; only for an app started with
   * `CANOPY_GATEWAY: 'on'` (ports 0 pick free ones).
   */
  gateway(): Promise<{ tlsPort: number; udpPort: number }>;
  stop(): Promise<void>;
}

// Each app of a run gets its own block of UDP game ports, so e2e files running in parallel never start
// two engines on one port (the default range is shared). 61000+ is above Linux's ephemeral ports and
// apart from the blocks the api tests use.
let portBlock = 0;
function gamePortRange(): string {
  const base = 61000 + (((process.pid % 150) * 30 + portBlock++ * 10) % 4500);
  return `${base}-${base + 9}`;
}

/** Starts `apps/api/src/main.ts` exactly as `npm start` does (after the web build), on SQLite. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-e2e-'));
  const proc = spawnApiProcess(dataDir, {
    CANOPY_SUPER_ADMINS: devUser(ADMIN_USERNAME).id,
    // Engines outlive an api by design (re-attach); a test app must not leave them behind.
    CANOPY_STOP_SERVERS_ON_EXIT: 'true',
    DISCORD_CLIENT_ID: '',
    DISCORD_API_URL: '',
    CANOPY_GAME_PORTS: gamePortRange(),
    ...env,
  });
  const { child, output } = proc;
  const { url, code } = await startLine(proc, 20_000);
  if (!url) throw new Error(`app exited with ${code}:\n${output()}`);
  return {
    url,
    dataDir,
    output,
    async gateway() {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const m = /Canopy gateway: https on port (\d+)\D+udp port (\d+)/.exec(output());
        if (m) return { tlsPort: Number(m[1]), udpPort: Number(m[2]) };
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the app printed no gateway line (started with CANOPY_GATEWAY=on?):\n${output()}`);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs one write on the running app's SQLite database (the api exposes no call for these test set-ups). */
function updateUser(app: RunningApp, discordId: string, column: 'storage_limit_mb' | 'available_slot', value: number) {
  const db = new DatabaseSync(join(app.dataDir, 'canopy.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const result = db.prepare(`UPDATE users SET ${column} = ? WHERE id = ?`).run(value, discordId);
    if (result.changes !== 1) throw new Error(`no user ${discordId} to update`);
  } finally {
    db.close();
  }
}

/** Sets a user's storage limit in MB (0 makes the storage full, which blocks starting the server). */
export function setStorageLimit(app: RunningApp, discordId: string, mb: number): void {
  updateUser(app, discordId, 'storage_limit_mb', mb);
}

/** Sets how many servers a user may still create. */
export function setAvailableSlots(app: RunningApp, discordId: string, slots: number): void {
  updateUser(app, discordId, 'available_slot', slots);
}
