import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { backupMessages as b } from '@canopy/contract';
import { pidAlive } from '../src/runtime/local/pids.ts';
import { spawnApiProcess, startLine } from './support/api-process.ts';

// A real api process killed with SIGKILL in the middle of a backup create and of a restore, at the named
// points of src/backups/fault.ts, then started again on the same data directory (SQLite; the files are the
// subject here, the row logic runs on both databases in backups.test.ts).
// Below the harness's blocks (20000-31999, support/harness.ts): an engine of a test file running beside this
// one must never hold this engine's game port.
const gamePorts = `${19000 + (process.pid % 90) * 10}-${19000 + (process.pid % 90) * 10 + 9}`;

interface Api {
  child: ChildProcess;
  /**
   * Resolves with the api's address once it printed its "is running" line, which main.ts prints after the
   * boot: every server re-attached or started as it should be. The api answers requests before that, with
   * a server whose engine is about to be adopted still shown OFFLINE.
   */
  ready: Promise<string>;
  /** Resolves when the api prints `CANOPY_FAULT_PAUSED <point>`. */
  paused: Promise<void>;
}

function spawnApi(dataDir: string, fault?: string): Api {
  // PORT stays 0, so each start takes a fresh port from the kernel: a port reused across restarts may be taken meanwhile.
  const proc = spawnApiProcess(
    dataDir,
    {
      CANOPY_STOP_SERVERS_ON_EXIT: 'true',
      CANOPY_GAME_PORTS: gamePorts,
      CANOPY_FAULT_PAUSE: fault ?? '',
      DISCORD_CLIENT_ID: '',
      DISCORD_API_URL: '',
    },
    'ignore',
  );
  const { child } = proc;
  const ready = startLine(proc).then(({ url, code }) => {
    if (!url) throw new Error(`api exited with ${code} before it was ready:\n${proc.output()}`);
    return `http://127.0.0.1:${new URL(url).port}`;
  });
  const paused = new Promise<void>((resolve) => {
    child.stdout?.on('data', () => {
      if (fault && proc.output().includes(`CANOPY_FAULT_PAUSED ${fault}`)) resolve();
    });
  });
  return { child, ready, paused };
}

/** Engines still running on the data directory (detached: an api killed with SIGKILL leaves them). */
function killEngines(dataDir: string) {
  const servers = join(dataDir, 'servers');
  for (const id of existsSync(servers) ? readdirSync(servers) : []) {
    try {
      process.kill(JSON.parse(readFileSync(join(servers, id, 'engine.json'), 'utf8')).pid, 'SIGKILL');
    } catch {
      // no engine.json, or its engine is gone
    }
  }
}

describe('an api killed in the middle of a backup create and a restore', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-backup-crash-'));
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    killEngines(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: the live database and the backup are intact, leftovers are cleaned at start', async () => {
    let base = '';
    let token = '';
    let id = '';
    const call = async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
      const res = await fetch(base + path, {
        method,
        signal,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const srv = (path: string) => `/users/${id}/server${path}`;
    const statusOf = async () =>
      (await call('GET', '/status')).body.hostedServers.find((s: { name: string }) => s.name === 'Crashy')?.status;
    const until = async (status: string) => {
      for (let i = 0; i < 600 && (await statusOf()) !== status; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(await statusOf(), status);
    };
    const up = async (fault?: string) => {
      const api = spawnApi(dataDir, fault);
      children.push(api.child);
      base = await api.ready;
      return api;
    };
    const down = async (api: Api, signal: NodeJS.Signals) => {
      const exited = new Promise((r) => api.child.once('exit', r));
      api.child.kill(signal);
      await exited;
    };
    const setBpm = async (bpm: number) => {
      const world = (await call('GET', srv('/worlds/START'))).body;
      assert.equal((await call('PUT', srv('/worlds/START'), { ...world, music_bpm: bpm })).status, 200);
    };
    const bpm = async () => (await call('GET', srv('/worlds/START'))).body.music_bpm;
    const startServer = async () => {
      assert.equal((await call('POST', srv('/Crashy/start'))).status, 202);
      await until('ONLINE');
    };
    /**
     * Sends a request the api will never answer (it pauses), runs `meanwhile` while it is paused there, then
     * kills the api.
     */
    const pauseOn = async (api: Api, method: string, path: string, meanwhile = async () => {}) => {
      const abandon = new AbortController();
      const pending = call(method, path, undefined, abandon.signal).catch(() => null);
      await api.paused;
      await meanwhile();
      await down(api, 'SIGKILL');
      abandon.abort();
      await pending;
    };
    const serverDir = () =>
      join(dataDir, 'servers', readdirSync(join(dataDir, 'servers')).find((f) => !f.startsWith('.')) ?? '');
    const backupDir = () => join(dataDir, 'backups', id);

    // A backup of the world at 111 beats per minute; the live world then moves on to 150.
    let api = await up();
    const approve = await fetch(
      `${base}/dev-discord/oauth2/approve?username=crasher&redirect_uri=${encodeURIComponent(`${base}/`)}`,
      { redirect: 'manual' },
    );
    const accessToken = new URLSearchParams(new URL(approve.headers.get('location') ?? '').hash.slice(1)).get(
      'access_token',
    );
    const login = await call('POST', '/auth/login', { accessToken });
    id = login.body.user.id;
    token = login.body.sessionToken;
    assert.equal(
      (await call('POST', '/register', { discordId: id, discordUsername: 'crasher', growId: 'Crasher' })).status,
      201,
    );
    assert.equal((await call('POST', srv(''), { serverName: 'Crashy' })).status, 201);
    await startServer();
    await setBpm(111);
    assert.equal((await call('POST', srv('/backup'))).status, 200);
    const kept = (await call('GET', srv('/backup'))).body;
    await setBpm(150);
    await down(api, 'SIGTERM');

    // Killed under the power lock, the server stopped, just before the backup streams to its files-only engine (which
    // swaps it in itself, or leaves the live database untouched). A page read meanwhile has started that engine: it
    // outlives the api, and the next api must stop it instead of adopting it as the server's game engine.
    api = await up('backup:restore-before-send');
    await until('ONLINE');
    let stray = 0;
    await pauseOn(api, 'POST', srv('/backup/restore'), async () => {
      // The restore holds the power lock: nothing can start the server under it.
      const start = await call('POST', srv('/Crashy/start'));
      assert.equal(start.status, 409, JSON.stringify(start.body));
      assert.equal(start.body.code, 'action_in_progress');
      assert.equal((await call('GET', srv('/creator-list'))).status, 200);
      const state = JSON.parse(readFileSync(join(serverDir(), 'engine.json'), 'utf8'));
      assert.equal(state.filesOnly, true, 'a files-only engine answered the read');
      stray = state.pid;
    });
    assert.ok(pidAlive(stray), 'the files-only engine outlived the api');

    api = await up();
    assert.equal(pidAlive(stray), false, 'the next api stopped the files-only engine it found');
    assert.deepEqual((await call('GET', srv('/backup'))).body, kept, 'the backup is intact');
    if ((await statusOf()) !== 'ONLINE') await startServer();
    assert.equal(await bpm(), 150, 'the live database is as it was');
    // And the backup still restores.
    assert.equal((await call('POST', srv('/backup/restore'))).status, 200);
    await startServer();
    assert.equal(await bpm(), 111);

    // Killed with a verified snapshot written beside its final place, before it was recorded and renamed.
    assert.equal((await call('DELETE', srv('/backup'))).status, 200);
    await setBpm(130);
    await down(api, 'SIGTERM');
    api = await up('backup:create-before-commit');
    await until('ONLINE');
    await pauseOn(api, 'POST', srv('/backup'));
    assert.ok(readdirSync(backupDir()).length > 0, 'the temporary snapshot was there when the api died');

    api = await up();
    assert.ok(!existsSync(backupDir()) || readdirSync(backupDir()).length === 0, 'no leftover files');
    assert.equal((await call('GET', srv('/backup'))).body.exists, false, 'no half-made backup');
    if ((await statusOf()) !== 'ONLINE') await startServer();
    assert.equal(await bpm(), 130, 'the live database is intact');
    const created = await call('POST', srv('/backup'));
    assert.deepEqual(created.body, { message: b.created });
    await down(api, 'SIGTERM');
  });
});
