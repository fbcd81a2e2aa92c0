import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type EngineStateFile, engineConfigFiles } from '@canopy/contract';
import { deriveControlSecret } from '../src/auth/secret.ts';
import { ServerRegistry } from '../src/servers/registry.ts';
import { dialects } from './support/databases.ts';
import { signInRegistered } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

// The test process runs with the usual umask (022), and the harness sets none: the modes checked
// here come from the api's and engine's explicit modes, not from process.umask in their main.ts.

const mode = (path: string) => statSync(path).mode & 0o777;
const octal = (path: string) => `${path}: ${mode(path).toString(8)}`;
const assertMode = (path: string, expected: number) =>
  assert.equal(mode(path), expected, `${octal(path)}, expected ${expected.toString(8)}`);

/** A data directory as an older install left it: 0755, with a 0644 session key and server folder. */
function wideDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-modes-test-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'session-secret'), 'k'.repeat(48), { mode: 0o644 });
  mkdirSync(join(dir, 'servers', 'leftover'), { recursive: true, mode: 0o755 });
  chmodSync(join(dir, 'servers'), 0o755);
  return dir;
}

for (const dialect of dialects) {
  describe(`secrets on disk [${dialect}]`, () => {
    const dirs: string[] = [];
    let api: TestApi | undefined;
    after(async () => {
      await api?.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    it('the data directory is 0700 and its files 0600 after the api and an engine start', async () => {
      const dir = wideDataDir();
      dirs.push(dir);
      if (dialect === 'sqlite') writeFileSync(join(dir, 'canopy.db'), '', { mode: 0o644 });
      api = await startApi(dialect, { CANOPY_DATA_DIR: dir });
      assertMode(dir, 0o700);
      assertMode(join(dir, 'session-secret'), 0o600);
      assertMode(join(dir, 'control-key'), 0o600);
      assertMode(join(dir, 'servers'), 0o700);
      assertMode(join(dir, 'servers', 'leftover'), 0o700);
      if (dialect === 'sqlite') {
        assert.ok(existsSync(join(dir, 'canopy.db-wal')), 'the WAL exists after the migrations');
        for (const f of ['canopy.db', 'canopy.db-wal', 'canopy.db-shm'])
          if (existsSync(join(dir, f))) assertMode(join(dir, f), 0o600);
      }

      const owner = await signInRegistered(api);
      const name = `modes${process.pid % 1000}${dialect[0]}`;
      const created = await api.request('POST', `/users/${owner.user.id}/server`, {
        token: owner.sessionToken,
        body: { serverName: name },
      });
      assert.equal(created.status, 201);
      await api.request('POST', `/users/${owner.user.id}/server/${name}/start`, { token: owner.sessionToken });
      await waitForStatus(api, name, 'ONLINE');
      const row = await api.ctx.db.get<{ id: string; control_secret: string }>(
        'SELECT id, control_secret FROM servers WHERE name = ?',
        [name],
      );
      assert.ok(row);
      const serverDir = join(dir, 'servers', row.id);
      assertMode(serverDir, 0o700);
      for (const f of ['engine.db', 'engine.json', ...Object.values(engineConfigFiles)])
        assertMode(join(serverDir, f), 0o600);
      if (existsSync(join(serverDir, 'engine.db-wal'))) assertMode(join(serverDir, 'engine.db-wal'), 0o600);

      // The control secret is stored nowhere: derived from the host key, and still required by the engine.
      assert.equal(row.control_secret, '');
      const state: EngineStateFile = JSON.parse(readFileSync(join(serverDir, 'engine.json'), 'utf8'));
      const stats = (secret?: string) =>
        fetch(`http://${state.controlHost}:${state.controlPort}/stats`, {
          headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` },
        }).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        });
      const key = readFileSync(join(dir, 'control-key'), 'utf8');
      assert.equal(await stats(), 401);
      assert.equal(await stats('x'.repeat(43)), 401);
      assert.equal(await stats(deriveControlSecret(key, 'another-server')), 401);
      assert.equal(await stats(deriveControlSecret(key, row.id)), 200);
    });
  });
}

describe('control secrets stored before ADR 0011', () => {
  let api: TestApi | undefined;
  after(() => api?.close());

  it('are dropped at boot unless an engine started with one may still run', async () => {
    api = await startApi('sqlite');
    const insert = (id: string, port: number) =>
      sql(
        api as TestApi,
        "INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at) VALUES (?, ?, ?, ?, ?, 'stored-secret-0123456789', 0)",
        [id, id, id, id, port],
      );
    for (const id of ['legacy-idle', 'legacy-live']) {
      await sql(api, 'INSERT INTO users (id, username, created_at) VALUES (?, ?, 0)', [id, id]);
    }
    await insert('legacy-idle', 1);
    await insert('legacy-live', 2);
    const liveDir = join(api.ctx.config.dataDir, 'servers', 'legacy-live');
    mkdirSync(liveDir, { recursive: true });
    writeFileSync(join(liveDir, 'engine.json'), '{}');

    const registry = new ServerRegistry({
      config: api.ctx.config,
      db: api.ctx.db,
      bus: api.ctx.bus,
      now: () => Date.now(),
      log: () => {},
    });
    await registry.boot();
    const secrets = await api.ctx.db.all<{ id: string; control_secret: string }>(
      "SELECT id, control_secret FROM servers WHERE id LIKE 'legacy-%' ORDER BY id",
    );
    assert.deepEqual(
      secrets.map((r) => `${r.id}=${r.control_secret}`),
      ['legacy-idle=', 'legacy-live=stored-secret-0123456789'],
    );
    const key = readFileSync(join(api.ctx.config.dataDir, 'control-key'), 'utf8');
    const idle = await api.ctx.db.get<never>("SELECT * FROM servers WHERE id = 'legacy-idle'");
    const live = await api.ctx.db.get<never>("SELECT * FROM servers WHERE id = 'legacy-live'");
    assert.equal(registry.spec(idle as never).secret, deriveControlSecret(key, 'legacy-idle'));
    assert.equal(registry.spec(live as never).secret, 'stored-secret-0123456789');
  });
});
