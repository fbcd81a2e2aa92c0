import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { columnsToBlocks, decodeTiles } from '../src/worlds/tiles.ts';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';
import { buildPlayer, buildWorld } from './support/factories.ts';

const WORLDS = ['DUR0', 'DUR1', 'DUR2', 'DUR3', 'DUR4', 'DUR5'];
const PLAYERS = ['Writer0', 'Writer1'];

/**
 * Keeps rewriting worlds (w_s = a counter) and players (gems = a counter), one sequential writer
 * per record, so each record's highest acknowledged value is the last write that was committed.
 */
function startWriters(engine: RunningEngine) {
  const acked = new Map<string, number>();
  const issued = new Map<string, number>();
  let running = true;
  const loop = async (key: string, write: (n: number) => Promise<number>) => {
    for (let n = 1; running; n++) {
      issued.set(key, n);
      try {
        const status = await write(n);
        if (status === 200 || status === 201) acked.set(key, n);
        else throw new Error(`status ${status}`);
      } catch {
        return; // the engine was killed or is stopping
      }
    }
  };
  // Each write names the version the one before answered (a save is conditional on it, ADR 0035).
  const versions = new Map<string, number>();
  const put = async (key: string, path: string, body: object) => {
    if (!versions.has(key)) {
      const read = await engine.request('GET', path);
      if (read.status === 200) versions.set(key, read.body.version);
    }
    const res = await engine.request('PUT', path, { ...body, version: versions.get(key) });
    if (typeof res.body?.version === 'number') versions.set(key, res.body.version);
    return res.status;
  };
  const loops = [
    ...WORLDS.map((w) => loop(w, (n) => put(w, `/worlds/${w}`, buildWorld({ w_s: n }, 20, 10)))),
    ...PLAYERS.map((p) => loop(p, (n) => put(p, `/players/${p}`, buildPlayer({ pass: '', gems: n })))),
  ];
  return {
    acked,
    issued,
    total: () => [...acked.values()].reduce((a, b) => a + b, 0),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Values of a record in a database file: w_s of a world, gems of a player. */
function readCounters(file: string) {
  const db = new DatabaseSync(file, { readOnly: true });
  const counters = new Map<string, number>();
  for (const r of db.prepare('SELECT name, w_s FROM worlds').all()) counters.set(String(r.name), Number(r.w_s));
  for (const r of db.prepare('SELECT name, gems FROM players').all()) counters.set(String(r.name), Number(r.gems));
  return { db, counters };
}

describe('durability', () => {
  const dirs: string[] = [];
  after(() => {
    killAll();
    for (const d of dirs) removeDataDir(d);
  });

  async function seeded(args: string[] = []): Promise<RunningEngine> {
    const dataDir = tempDataDir();
    const engine = await startEngine({
      dataDir,
      args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', ...args],
    });
    dirs.push(engine.dataDir);
    for (const p of PLAYERS) assert.equal((await engine.request('PUT', `/players/${p}`, buildPlayer())).status, 201);
    return engine;
  }

  it('keeps every acknowledged write through a SIGKILL under heavy writes', async () => {
    const engine = await seeded();
    const writers = startWriters(engine);
    await until(() => writers.total() >= 400);
    engine.child.kill('SIGKILL');
    await engine.exited;
    await writers.stop();

    const restarted = await startEngine({ dataDir: engine.dataDir });
    assert.ok(restarted.lines.some((l) => /\[WARN\] Replacing a stale engine\.json/.test(l)));
    for (const w of WORLDS) {
      const world = (await restarted.request('GET', `/worlds/${w}`)).body;
      assert.ok(world.w_s >= (writers.acked.get(w) ?? 0), `${w}: ${world.w_s} >= acked ${writers.acked.get(w)}`);
      assert.ok(world.w_s <= (writers.issued.get(w) ?? 0), `${w}: no value that was never written`);
      assert.equal(world.blocks.length, 200);
    }
    for (const p of PLAYERS) {
      const player = (await restarted.request('GET', `/players/${p}`)).body;
      assert.ok(player.gems >= (writers.acked.get(p) ?? 0), `${p}: ${player.gems} >= acked ${writers.acked.get(p)}`);
    }
    assert.equal((await stopEngine(restarted)).code, 0);
    const { db } = readCounters(join(engine.dataDir, 'engine.db'));
    assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
    db.close();
  });

  it('takes an online backup under writes that opens cleanly and matches', async () => {
    // Enough data for the backup to take many steps, with writes landing between them.
    const engine = await seeded(['--sample-worlds', '400']);
    const out = tempDataDir();
    dirs.push(out);
    const writers = startWriters(engine);
    await until(() => writers.total() >= 150);
    const ackedBefore = new Map(writers.acked);
    const backup = await engine.request('POST', '/backup', { path: join(out, 'under-writes.db') });
    assert.equal(backup.status, 200, JSON.stringify(backup.body));
    const issuedAfter = new Map(writers.issued);
    assert.ok(writers.total() > [...ackedBefore.values()].reduce((a, b) => a + b, 0), 'writes went on meanwhile');
    await until(() => writers.total() >= 250);
    await writers.stop();

    // Consistent: every record is a committed version from between the request and the answer.
    const { db, counters } = readCounters(backup.body.path);
    assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
    for (const key of [...WORLDS, ...PLAYERS]) {
      const value = counters.get(key) ?? -1;
      assert.ok(value >= (ackedBefore.get(key) ?? 0), `${key}: ${value} >= ${ackedBefore.get(key)} acked before`);
      assert.ok(
        value <= (issuedAfter.get(key) ?? 0),
        `${key}: ${value} <= ${issuedAfter.get(key)} issued by the answer`,
      );
    }
    for (const r of db.prepare('SELECT width, height, tiles FROM worlds JOIN world_tiles ON world_id = id').all())
      assert.equal(decodeTiles(r.tiles as Uint8Array).count, Number(r.width) * Number(r.height));
    db.close();

    // Matches: with the writes over, a backup holds exactly what the engine serves.
    const quiet = await engine.request('POST', '/backup', { path: join(out, 'quiet.db') });
    const copy = readCounters(quiet.body.path);
    for (const w of WORLDS) assert.equal(copy.counters.get(w), (await engine.request('GET', `/worlds/${w}`)).body.w_s);
    for (const p of PLAYERS)
      assert.equal(copy.counters.get(p), (await engine.request('GET', `/players/${p}`)).body.gems);
    const live = (await engine.request('GET', '/worlds/DUR0')).body;
    const row = copy.db.prepare("SELECT tiles FROM worlds JOIN world_tiles ON world_id = id WHERE name = 'DUR0'").get();
    assert.deepEqual(columnsToBlocks(decodeTiles(row?.tiles as Uint8Array)), live.blocks);
    assert.equal(
      Number(copy.db.prepare('SELECT COUNT(*) AS n FROM worlds').get()?.n),
      (await engine.request('GET', '/worlds')).body.total,
    );
    copy.db.close();
    assert.equal((await stopEngine(engine)).code, 0);
  });
});
