import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { playerListResponseSchema, playerSchema } from '@canopy/contract';
import { verifyPassword } from '../src/players/password.ts';
import { killAll, type RunningEngine, removeDataDir, startEngine, stopEngine } from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';

describe('control API: players', () => {
  let engine: RunningEngine;
  const dataDirs: string[] = [];
  before(async () => {
    engine = await startEngine();
    dataDirs.push(engine.dataDir);
  });
  after(async () => {
    await stopEngine(engine);
    killAll();
    for (const d of dataDirs) removeDataDir(d);
  });

  /** The stored password hash, read from the database file of a stopped engine. */
  async function storedHash(name: string): Promise<string> {
    await stopEngine(engine);
    const db = new DatabaseSync(join(engine.dataDir, 'engine.db'), { readOnly: true });
    const row = db.prepare('SELECT pass_hash FROM players WHERE name_key = ?').get(name.toLowerCase());
    db.close();
    engine = await startEngine({ dataDir: engine.dataDir });
    return String(row?.pass_hash);
  }

  it('creates a player only with a password, and never returns it', async () => {
    const without = await engine.request('PUT', '/players/Grower1', buildPlayer({ pass: '' }));
    assert.deepEqual(without, {
      status: 400,
      body: { error: 'Player Grower1 does not exist; pass is required to create one.' },
    });
    const created = await engine.request('PUT', '/players/Grower1', buildPlayer());
    assert.equal(created.status, 201);
    const player = playerSchema.parse(created.body);
    assert.equal(player.pass, '');
    assert.equal(player.home_world, 'START', 'home_world is upper-cased');
    assert.equal(player['Role.VIP'], true);
    assert.equal(player['Role.Developer'], false, 'known roles default to false');
    assert.equal(player.banned, false);
    assert.deepEqual((await engine.request('GET', '/players/grower1')).body, created.body);
  });

  it('stores the password hashed; an empty pass keeps it, a new one replaces it', async () => {
    const first = await storedHash('Grower1');
    assert.match(first, /^scrypt\$/);
    assert.ok(!first.includes('hunter22'));
    assert.equal(await verifyPassword('hunter22', first), true);

    const current = (await engine.request('GET', '/players/Grower1')).body;
    assert.equal((await engine.request('PUT', '/players/Grower1', { ...current, gems: 99 })).status, 200);
    assert.equal(await storedHash('Grower1'), first, 'pass "" keeps the password');
    assert.equal((await engine.request('GET', '/players/Grower1')).body.gems, 99);

    // Read again: the copy read before the gems changed is stale now (see the conditional write tests below).
    const fresh = (await engine.request('GET', '/players/Grower1')).body;
    const renewed = await engine.request('PUT', '/players/Grower1', {
      ...fresh,
      gems: current.gems,
      pass: 'another-secret',
    });
    assert.equal(renewed.status, 200);
    const second = await storedHash('Grower1');
    assert.notEqual(second, first);
    assert.equal(await verifyPassword('another-secret', second), true);
  });

  it('lists players with roles, search, filters and paging', async () => {
    await engine.request(
      'PUT',
      '/players/ModMan',
      buildPlayer({ 'Role.Moderator': true, 'Role.VIP': false, level: 40 }),
    );
    await engine.request('PUT', '/players/Newbie', buildPlayer({ 'Role.VIP': false, level: 1, gems: 0 }));
    const all = playerListResponseSchema.parse((await engine.request('GET', '/players')).body);
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.players.map((p) => [p.name, p.roles]),
      [
        ['Grower1', ['VIP']],
        ['ModMan', ['Moderator']],
        ['Newbie', []],
      ],
    );
    const q = async (query: string) =>
      (await engine.request('GET', `/players?${query}`)).body.players.map((p: { name: string }) => p.name);
    assert.deepEqual(await q('search=MAN'), ['ModMan']);
    assert.deepEqual(await q('role=Moderator'), ['ModMan']);
    assert.deepEqual(await q('minLevel=2&minGems=100'), ['Grower1', 'ModMan']);
    assert.deepEqual(await q('offset=1&limit=1'), ['ModMan']);
    assert.equal((await engine.request('GET', '/players?offset=1&limit=1')).body.total, 3);
  });

  it('refuses bad players with a precise 400 and changes nothing', async () => {
    const before = (await engine.request('GET', '/players/ModMan')).body;
    const cases: [unknown, RegExp][] = [
      [{ ...before, level: 0 }, /^Level must be between 1 and 1000\.$/],
      [{ ...before, colour: true }, /Unknown field "colour": only Role\.\* and Title\.\* flags may be added\./],
      [{ ...before, 'Role.Admin': 'yes' }, /^Roles and titles must be true or false\.$/],
      [
        {
          ...before,
          inventory: [
            [2, 1],
            [2, 4],
          ],
        },
        /^inventory\.1: Item 2 appears more than once\.$/,
      ],
      [{ ...before, inventory: [[2, 201]] }, /^inventory\.0\.1: Item count must be between 1 and 200\.$/],
      [{ ...before, email: 'not-an-email' }, /^Email must be an email address or empty\.$/],
      [{ ...before, home_world: 'no such!' }, /^Home World must be a world name/],
      [{ ...before, gems: undefined }, /^Gems is required\.$/],
    ];
    for (const [body, message] of cases) {
      const res = await engine.request('PUT', '/players/ModMan', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error, message);
    }
    assert.equal(
      (await engine.request('PUT', '/players/ab', buildPlayer())).body.error,
      'GrowID must be 3-20 alphanumeric characters.',
    );
    assert.deepEqual((await engine.request('GET', '/players/ModMan')).body, before);
  });

  it('writes a player only at the version it was read at: a give or a ban since is a 409, no version a 428', async () => {
    const read = (await engine.request('GET', '/players/ModMan')).body;
    // What the game does between the panel's read and its save: items given (the console's give).
    const from = engine.lines.length;
    engine.type('give ModMan 2 5');
    await engine.waitForLine(/Gave 5 /, from);
    const stale = await engine.request('PUT', '/players/ModMan', { ...read, level: 41 });
    assert.deepEqual(stale, {
      status: 409,
      body: {
        error:
          'This player changed in the game since you opened them. Reload to see the latest version, then make your change again.',
        code: 'version_conflict',
      },
    });
    const { version: _v, ...unversioned } = read;
    assert.equal((await engine.request('PUT', '/players/ModMan', unversioned)).status, 428);
    const now = (await engine.request('GET', '/players/ModMan')).body;
    const dirt = (p: { inventory: [number, number][] }) => p.inventory.find(([id]) => id === 2)?.[1] ?? 0;
    assert.deepEqual([now.level, dirt(now)], [read.level, dirt(read) + 5], 'the give was kept');
    const saved = await engine.request('PUT', `/players/ModMan?version=${now.version}`, {
      ...unversioned,
      ...now,
      level: 41,
    });
    assert.equal(saved.status, 200);
    assert.ok(saved.body.version > now.version);
    const both = await Promise.all(
      [5, 6].map((level) => engine.request('PUT', '/players/ModMan', { ...saved.body, level })),
    );
    assert.deepEqual(both.map((a) => a.status).sort(), [200, 409]);
  });

  it('bans on DELETE, keeping the record', async () => {
    const res = await engine.request('DELETE', '/players/newbie');
    assert.deepEqual(res, { status: 200, body: { message: 'Player newbie has been banned.' } });
    const player = (await engine.request('GET', '/players/Newbie')).body;
    assert.equal(player.banned, true);
    assert.equal((await engine.request('DELETE', '/players/Ghost1')).status, 404);
    assert.ok(engine.lines.some((l) => /\[INFO\] Banned newbie \(banned from the panel\)/.test(l)));
  });

  it('marks banned players in the list, and lifts a ban on POST /players/:name/unban', async () => {
    const banned = async () =>
      playerListResponseSchema
        .parse((await engine.request('GET', '/players')).body)
        .players.filter((p) => p.banned)
        .map((p) => p.name);
    assert.deepEqual(await banned(), ['Newbie']);
    const res = await engine.request('POST', '/players/NEWBIE/unban');
    assert.deepEqual(res, { status: 200, body: { message: 'Player NEWBIE has been unbanned.' } });
    assert.deepEqual(await banned(), []);
    assert.equal((await engine.request('GET', '/players/Newbie')).body.banned, false);
    assert.equal((await engine.request('POST', '/players/Ghost1/unban')).status, 404);
    assert.equal((await engine.request('POST', '/players/a%20b/unban')).status, 400);
  });
});
