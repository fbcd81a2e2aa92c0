import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { engineExitCodes } from '@canopy/contract';
import {
  type RunningEngine,
  removeDataDir,
  spawnEngine,
  startEngine,
  startFilesOnlyEngine,
  stopEngine,
  tearDown,
  tempDataDir,
} from './support/engine-process.ts';
import { buildWorld } from './support/factories.ts';
import { fileHash, rawRequest, sha256, udpSocketsOf } from './support/files-client.ts';

/** The database's files as they are on disk: what an untouched restore leaves exactly as it was. */
const databaseState = (dir: string) => ['engine.db', 'engine.db-wal'].map((n) => fileHash(join(dir, n))).join(' ');

/** What a copy of the database holds: its worlds by name. */
const worldsIn = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db
      .prepare('SELECT name FROM worlds ORDER BY name')
      .all()
      .map((r) => String(r.name));
  } finally {
    db.close();
  }
};

describe('files-only mode', () => {
  const dataDir = tempDataDir();
  const scratch = tempDataDir();
  let engine: RunningEngine;
  /** A snapshot taken by the game engine with world OLD, then one with world NEW besides. */
  let withOld: Buffer;
  let withNew: Buffer;
  const restore = (bytes: Uint8Array, query: { sha256?: string; bytes?: number } = {}) =>
    rawRequest(
      engine.url,
      'PUT',
      `/restore?sha256=${query.sha256 ?? sha256(bytes)}&bytes=${query.bytes ?? bytes.length}`,
      bytes,
    );

  before(async () => {
    const game = await startEngine({ dataDir });
    assert.equal((await game.request('PUT', '/worlds/OLD', buildWorld())).status, 201);
    withOld = (await rawRequest(game.url, 'GET', '/snapshot')).body;
    assert.equal((await game.request('PUT', '/worlds/NEW', buildWorld())).status, 201);
    // Killed, not stopped: its last writes are in the -wal, as a crash leaves them.
    game.child.kill('SIGKILL');
    await game.exited;
    engine = await startFilesOnlyEngine(dataDir);
  });
  after(() => tearDown(engine, dataDir, scratch));

  it('runs no game: game=0, no UDP socket, engine.json and /stats say filesOnly', async () => {
    assert.equal(engine.gamePort, 0);
    assert.equal(udpSocketsOf(engine.pid), 0);
    const state = JSON.parse(readFileSync(join(dataDir, 'engine.json'), 'utf8'));
    assert.equal(state.filesOnly, true);
    assert.equal(state.gamePort, 0);
    assert.equal(state.pid, engine.pid);
    const stats = await engine.request('GET', '/stats');
    assert.deepEqual(
      { ...stats.body, uptime: 0 },
      {
        players: 0,
        version: engine.version,
        uptime: 0,
        itemsDatHash: null,
        filesOnly: true,
      },
    );
    assert.equal((await engine.request('GET', '/worlds')).status, 404, 'no game routes');
    assert.ok(!engine.lines.some((l) => /First start|Loaded \d+ items/.test(l)), 'no world, no items');
  });

  it('holds the data directory: a game engine cannot start on it meanwhile', async () => {
    const second = spawnEngine({ dataDir });
    assert.equal((await second.exited).code, engineExitCodes.alreadyRunning);
  });

  it('snapshots the database (the killed engine’s WAL included) without changing it', async () => {
    const state = databaseState(dataDir);
    const snap = await rawRequest(engine.url, 'GET', '/snapshot');
    assert.equal(snap.status, 200);
    assert.equal(snap.headers['x-canopy-sha256'], sha256(snap.body));
    withNew = snap.body;
    writeFileSync(join(scratch, 'new.db'), withNew);
    assert.deepEqual(worldsIn(join(scratch, 'new.db')), ['NEW', 'OLD', 'START']);
    assert.equal(databaseState(dataDir), state);
    assert.deepEqual(
      readdirSync(dataDir).filter((n) => n.startsWith('engine.db') && n !== 'engine.db' && n !== 'engine.db-wal'),
      [],
    );
  });

  it('refuses a damaged restore (422 backup_damaged) and leaves the database as it was', async () => {
    const state = databaseState(dataDir);
    const garbage = randomBytes(8192);
    const truncated = withOld.subarray(0, withOld.length - 4096);
    const cases: [string, () => ReturnType<typeof restore>][] = [
      ['wrong sha256', () => restore(withOld, { sha256: sha256(withNew) })],
      ['fewer bytes than named', () => restore(truncated, { sha256: sha256(withOld), bytes: withOld.length })],
      ['more bytes than named', () => restore(withOld, { bytes: withOld.length - 1 })],
      ['garbage with its own sha256', () => restore(garbage)],
      ['a database cut short, with its own sha256', () => restore(truncated)],
      ['an empty body', () => restore(Buffer.alloc(0))],
    ];
    for (const [what, attempt] of cases) {
      const res = await attempt();
      assert.equal(res.status, 422, `${what}: ${res.status} ${res.body}`);
      assert.equal(res.json().code, 'backup_damaged', what);
      assert.equal(databaseState(dataDir), state, what);
    }
    assert.equal((await restore(withOld, { sha256: 'nope' })).status, 400);
    assert.equal((await restore(withOld, { bytes: -1 })).status, 400);
    assert.deepEqual(
      readdirSync(dataDir).filter((n) => n.endsWith('.tmp')),
      [],
      'no staged copy is left',
    );
  });

  it('restores a database: the old WAL folded away, engine.db replaced whole', async () => {
    assert.ok(existsSync(join(dataDir, 'engine.db-wal')), 'the killed engine left a WAL');
    const res = await restore(withOld);
    assert.equal(res.status, 200, res.body.toString());
    assert.deepEqual(res.json(), { bytes: withOld.length });
    assert.equal(fileHash(join(dataDir, 'engine.db')), sha256(withOld));
    for (const extra of ['-wal', '-shm', '-journal', '-wal.before-restore'])
      assert.equal(existsSync(join(dataDir, `engine.db${extra}`)), false, extra);
    assert.deepEqual(worldsIn(join(dataDir, 'engine.db')), ['OLD', 'START']);
    assert.ok(!engine.lines.some((l) => /setting its WAL aside/.test(l)), 'folded, not set aside');
  });

  it('restores over a database too damaged to open, setting its WAL aside', async () => {
    writeFileSync(join(dataDir, 'engine.db'), randomBytes(8192));
    writeFileSync(join(dataDir, 'engine.db-wal'), randomBytes(4096));
    const from = engine.lines.length;
    const res = await restore(withNew);
    assert.equal(res.status, 200, res.body.toString());
    await engine.waitForLine(/\[WARN\] The database being replaced could not be opened .*setting its WAL aside/, from);
    assert.equal(fileHash(join(dataDir, 'engine.db')), sha256(withNew));
    for (const extra of ['-wal', '-shm', '-wal.before-restore'])
      assert.equal(existsSync(join(dataDir, `engine.db${extra}`)), false, extra);
  });

  it('stops on `stop` typed on stdin, removing engine.json; a game engine then starts on what was restored', async () => {
    engine.type('stop');
    assert.equal((await engine.exited).code, 0);
    assert.equal(existsSync(join(dataDir, 'engine.json')), false);
    const game = await startEngine({ dataDir });
    try {
      const names = (await game.request('GET', '/worlds')).body.worlds.map((w: { name: string }) => w.name);
      assert.deepEqual(names.sort(), ['NEW', 'OLD', 'START']);
    } finally {
      await stopEngine(game);
    }
  });

  it('answers 404 no_database when there is none', async () => {
    const empty = tempDataDir();
    const bare = await startFilesOnlyEngine(empty);
    try {
      const res = await rawRequest(bare.url, 'GET', '/snapshot');
      assert.equal(res.status, 404);
      assert.equal(res.json().code, 'no_database');
      assert.deepEqual((await bare.request('GET', '/usage')).body.databaseBytes, 0);
    } finally {
      await stopEngine(bare);
      removeDataDir(empty);
    }
  });

  it('stops itself after its idle while without a call (whoever started it is gone), not while calls come', async () => {
    const idle = tempDataDir();
    const args = ['--files-only', '--data-dir', idle, '--control-port', '0', '--files-idle-exit-ms', '1500'];
    const alone = await startEngine({ dataDir: idle, args });
    try {
      // Calls every 300 ms for 2.4 s keep it up past its 1.5 s.
      for (let i = 0; i < 8; i++) {
        assert.equal((await alone.request('GET', '/usage')).status, 200);
        await new Promise((r) => setTimeout(r, 300));
      }
      assert.equal(alone.child.exitCode, null, 'still running while called');
      assert.equal((await alone.exited).code, 0, 'then it stops cleanly on its own');
      assert.ok(
        alone.lines.some((l) => /no file call for 2 s/.test(l)),
        alone.lines.join('\n'),
      );
      assert.equal(existsSync(join(idle, 'engine.json')), false, 'and gives the data directory back');
    } finally {
      await stopEngine(alone);
      removeDataDir(idle);
    }
  });
});
