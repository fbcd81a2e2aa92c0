import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import type { EngineContext } from '../src/context.ts';
import { dataRoutes } from '../src/control/routes-data.ts';
import { startControlServer } from '../src/control/server.ts';
import { openDatabase } from '../src/db/open.ts';
import { DISK_FULL_MESSAGE } from '../src/errors.ts';
import { Logger } from '../src/log.ts';
import { createPlayersRepo } from '../src/players/players.repo.ts';
import { createWorldsRepo } from '../src/worlds/worlds.repo.ts';
import { type Json, removeDataDir, TEST_SECRET, tempDataDir } from './support/engine-process.ts';
import { buildWorld } from './support/factories.ts';

/** A world whose random tiles do not compress: it needs many new database pages. */
const noisyWorld = (side: number) => {
  const world = buildWorld({}, side, side);
  for (const tile of world.blocks) {
    tile.fg = Math.floor(Math.random() * 60000);
    tile.bg = Math.floor(Math.random() * 60000);
  }
  return world;
};

// The control API in this process, on a real database whose size is capped (SQLite's max_page_count):
// a full disk as SQLite reports it, without needing one.
describe('control API on a full disk', () => {
  const dataDir = tempDataDir();
  const lines: string[] = [];
  let db: DatabaseSync;
  let server: Server;
  let url = '';
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${TEST_SECRET}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  before(async () => {
    db = openDatabase(join(dataDir, 'engine.db'));
    const log = new Logger({ sink: (text) => lines.push(text) });
    const ctx = {
      options: { secret: TEST_SECRET },
      log,
      db,
      worlds: createWorldsRepo(db, { online: () => 0, inWorld: () => 0 }),
      players: createPlayersRepo(db),
      // No game network here: nobody is in a world whose edit would reach them.
      network: { worldChanged() {}, flushWorld() {}, playerChanged() {}, kick: () => false },
      stopping: false,
    } as unknown as EngineContext;
    server = await startControlServer(ctx, dataRoutes, '127.0.0.1', 0);
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    db.close();
    removeDataDir(dataDir);
  });

  it('answers 507 with a clear message, logs the cause, and saves nothing of the write', async () => {
    // Plain tiles at the size the noisy replacement keeps (a save never changes a world's size).
    const small = buildWorld({ music_bpm: 100 }, 120, 120);
    assert.equal((await request('PUT', '/worlds/KEEP', small)).status, 201);
    db.exec('PRAGMA max_page_count = 1'); // clamped to the current size: no page may be added

    const created = await request('PUT', '/worlds/BIG', noisyWorld(120));
    assert.equal(created.status, 507, JSON.stringify(created.body));
    assert.equal(created.body.error, DISK_FULL_MESSAGE);
    assert.ok(
      lines.some((l) => l.includes('[ERROR]') && /full/i.test(l)),
      'the original error is logged',
    );
    assert.equal((await request('GET', '/worlds/BIG')).status, 404, 'no world without its tiles');

    const { version } = (await request('GET', '/worlds/KEEP')).body;
    const replaced = await request('PUT', '/worlds/KEEP', { ...noisyWorld(120), music_bpm: 140, version });
    assert.equal(replaced.status, 507);
    const kept = await request('GET', '/worlds/KEEP');
    assert.equal(kept.body.music_bpm, 100, 'the old world is intact');
    assert.equal(kept.body.width, small.width);

    db.exec('PRAGMA max_page_count = 1073741823');
    assert.equal((await request('PUT', '/worlds/BIG', noisyWorld(120))).status, 201, 'works again with room');
  });
});
