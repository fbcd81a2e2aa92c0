import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engineStatsSchema, worldListResponseSchema, worldSchema } from '@canopy/contract';
import { type RunningEngine, startEngine, TEST_SECRET, tearDown } from './support/engine-process.ts';
import { buildWorld } from './support/factories.ts';

describe('control API: auth, stats and worlds', () => {
  let engine: RunningEngine;
  before(async () => {
    engine = await startEngine();
  });
  after(() => tearDown(engine));

  it('refuses a request without the secret, or with a wrong one', async () => {
    const res = await fetch(`${engine.url}/stats`);
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: 'Missing or wrong bearer secret.' });
    assert.equal((await engine.request('GET', '/worlds', undefined, 'wrong-secret-0123456789')).status, 401);
  });

  it('answers stats', async () => {
    const { status, body } = await engine.request('GET', '/stats');
    assert.equal(status, 200);
    const stats = engineStatsSchema.parse(body);
    assert.equal(stats.players, 0);
    assert.equal(stats.version, engine.version);
    assert.ok(stats.uptime >= 0);
  });

  it('lists and shows the starting world made on first start', async () => {
    const list = worldListResponseSchema.parse((await engine.request('GET', '/worlds')).body);
    assert.deepEqual(list.worlds, [{ name: 'START', owner: '', players: 0, locked: false, id: list.worlds[0]?.id }]);
    assert.equal(list.total, 1);
    const raw = await (
      await fetch(`${engine.url}/worlds`, { headers: { authorization: `Bearer ${TEST_SECRET}` } })
    ).text();
    assert.match(raw, /"players":0,"locked":false,/, 'counts are JSON integers');
    const start = worldSchema.parse((await engine.request('GET', '/worlds/start')).body);
    assert.equal(start.width * start.height, start.blocks.length);
    assert.equal(start.music_bpm, 100);
    assert.deepEqual([start.r, start.g, start.b], [255, 128, 64]);
    assert.ok(
      start.blocks.some((b) => b.fg === 6),
      'it has a main door',
    );
  });

  it('creates, replaces and round-trips a whole world, name case-insensitive', async () => {
    const body = buildWorld({ owner: 'Alice', admins: [' Bob '], weather: 2 });
    body.blocks[0] = { ...body.blocks[0], label: 'Hello' };
    const created = await engine.request('PUT', '/worlds/buyDirt', body);
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'BUYDIRT');
    assert.deepEqual(created.body.admins, ['Bob'], 'admins are trimmed');
    const got = (await engine.request('GET', '/worlds/BUYDIRT')).body;
    assert.deepEqual(got, created.body);
    assert.deepEqual(got.blocks[0], { fg: 0, bg: 14, o: 0, l: 0, fl: 0, if_c: 0, label: 'Hello' });

    // The panel's lock toggle: fetch, set d_weather, save the whole world (with name, id and version in it).
    const locked = await engine.request('PUT', '/worlds/buydirt', { ...got, d_weather: 6 });
    assert.equal(locked.status, 200);
    assert.equal(locked.body.id, got.id);
    assert.ok(locked.body.version > got.version, 'a write moves the revision on');
    // What the api asks for: the outcome only, not 40,000 tiles back.
    const brief = await engine.request('PUT', '/worlds/buydirt?answer=brief', { ...locked.body, d_weather: 6 });
    assert.equal(brief.status, 200);
    assert.deepEqual({ ...brief.body, version: 0 }, { name: 'BUYDIRT', created: false, version: 0 });
    assert.ok(brief.body.version > locked.body.version);
    const fresh = await engine.request('PUT', '/worlds/brief1?answer=brief', buildWorld());
    assert.equal(fresh.status, 201);
    assert.deepEqual([fresh.body.name, fresh.body.created], ['BRIEF1', true]);
    assert.equal((await engine.request('DELETE', '/worlds/BRIEF1')).status, 200);
    // The full list (kept between writes) shows the new world and its lock at once.
    const full = worldListResponseSchema.parse((await engine.request('GET', '/worlds')).body);
    assert.equal(full.worlds.find((w) => w.name === 'BUYDIRT')?.locked, true);
    const rows = (await engine.request('GET', '/worlds?search=buy')).body;
    assert.deepEqual(rows, {
      worlds: [{ name: 'BUYDIRT', owner: 'Alice', players: 0, locked: true, id: got.id }],
      total: 1,
    });
  });

  it('pages and searches the list', async () => {
    for (const name of ['PAGEA', 'PAGEB', 'PAGEC', 'PAGED'])
      await engine.request('PUT', `/worlds/${name}`, buildWorld());
    const page = (await engine.request('GET', '/worlds?search=page&offset=1&limit=2')).body;
    assert.deepEqual(
      page.worlds.map((w: { name: string }) => w.name),
      ['PAGEB', 'PAGEC'],
    );
    assert.equal(page.total, 4);
    assert.equal((await engine.request('GET', '/worlds?search=_')).body.total, 0, 'LIKE wildcards are literal');
  });

  it('refuses bad worlds with a precise 400 and changes nothing', async () => {
    const before = (await engine.request('GET', '/worlds/BUYDIRT')).body;
    const cases: [unknown, RegExp][] = [
      [{ ...before, d_weather: 3 }, /^d_weather must be 6 \(locked\) or 0 \(open\)\.$/],
      [{ ...before, height: 4 }, /^blocks must hold width × height = 16 tiles, got 12\.$/],
      [
        { ...before, blocks: before.blocks.map((b: object, i: number) => (i === 5 ? { ...b, o: 2 } : b)) },
        /^blocks\.5\.o: o must be 0 or 1\.$/,
      ],
      [{ ...before, r: 256 }, /^Red must be between 0 and 255\.$/],
      [{ ...before, admins: ['Bob', 'bob'] }, /^admins\.1: Duplicate admin "bob"\.$/],
      [{ ...before, musicbpm: 120 }, /^Unknown field "musicbpm"\.$/],
      // Tiles are strict objects (issue 21): a property of its own is refused by name, whatever its value.
      [
        {
          ...before,
          blocks: before.blocks.map((b: object, i: number) => (i === 5 ? { ...b, junk: 'x'.repeat(300) } : b)),
        },
        /^blocks\.5: Unknown tile property "junk": a tile has fg, bg, o, l, fl, if_c, label only\.$/,
      ],
      // An existing world keeps its size (issue 21): 200 × 200 with 40,000 tiles, or 12 tiles as 2 × 6.
      [
        { ...before, width: 200, height: 200, blocks: new Array(40_000).fill(before.blocks[0]) },
        /^A world's size cannot be changed: BUYDIRT is 4 × 3\.$/,
      ],
      [{ ...before, width: 2, height: 6 }, /^A world's size cannot be changed: BUYDIRT is 4 × 3\.$/],
      [{ ...before, name: 'OTHER' }, /does not match the world in the path/],
      [[1, 2], /^Request body must be a JSON object\.$/],
      // Refused by the tile list's length before any tile is looked at (issue 21: 1.7 million zeros in 3.4 MB
      // took an engine from 75 MB to 1.15 GB, explained tile by tile).
      [
        { blocks: new Array(1_700_000).fill(0) },
        /^blocks must hold at most 40000 tiles \(a 200 × 200 world\), got 1700000\.$/,
      ],
      [{ ...before, blocks: new Array(40_000).fill(0) }, /^blocks must hold width × height = 12 tiles, got 40000\.$/],
    ];
    for (const [body, message] of cases) {
      const res = await engine.request('PUT', '/worlds/BUYDIRT', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error, message);
      if (/size cannot be changed/.test(res.body.error)) assert.equal(res.body.code, 'world_size_fixed');
    }
    const notJson = await engine.request('PUT', '/worlds/BUYDIRT', '{"owner":');
    assert.deepEqual(notJson, { status: 400, body: { error: 'Request body is not valid JSON.' } });
    const badName = await engine.request('PUT', '/worlds/no-dashes', buildWorld());
    assert.equal(badName.status, 400);
    assert.equal(badName.body.error, 'World name must be 1-24 letters or digits.');
    assert.deepEqual((await engine.request('GET', '/worlds/BUYDIRT')).body, before);
    assert.equal((await engine.request('GET', '/worlds/NODASHES')).status, 404);
  });

  it('writes a world only at the version it was read at (compare-and-swap), else 409 or 428, changing nothing', async () => {
    const read = (await engine.request('GET', '/worlds/BUYDIRT')).body;
    const first = await engine.request('PUT', '/worlds/BUYDIRT?answer=brief', { ...read, weather: 10 });
    assert.equal(first.status, 200);
    // A second editor that read the same copy: its save would undo the first, so it is refused.
    const stale = await engine.request('PUT', '/worlds/BUYDIRT', { ...read, music_bpm: 150 });
    assert.deepEqual(stale, {
      status: 409,
      body: {
        error:
          'This world changed in the game since you opened it. Reload to see the latest version, then make your change again.',
        code: 'version_conflict',
      },
    });
    // The version as the api passes an If-Match on (?version=) works the same, with or without the body's.
    const { version: _v, ...unversioned } = read;
    assert.equal((await engine.request('PUT', `/worlds/BUYDIRT?version=${read.version}`, unversioned)).status, 409);
    const none = await engine.request('PUT', '/worlds/BUYDIRT', unversioned);
    assert.equal(none.status, 428);
    assert.equal(none.body.code, 'version_required');
    const disagree = await engine.request('PUT', `/worlds/BUYDIRT?version=${first.body.version}`, read);
    // A code of its own (issue 21), not the api's catch-all engine_refused.
    assert.deepEqual(disagree.body, {
      error: 'The If-Match header and the version field name different versions.',
      code: 'version_mismatch',
    });
    assert.equal((await engine.request('PUT', '/worlds/BUYDIRT?version=abc', unversioned)).status, 400);
    const now = (await engine.request('GET', '/worlds/BUYDIRT')).body;
    assert.deepEqual([now.weather, now.music_bpm, now.version], [10, read.music_bpm, first.body.version]);
    const viaQuery = await engine.request('PUT', `/worlds/BUYDIRT?version=${now.version}`, {
      ...unversioned,
      weather: 12,
    });
    assert.equal(viaQuery.status, 200);
    // A world deleted since it was read.
    const gone = (await engine.request('GET', '/worlds/PAGED')).body;
    assert.equal((await engine.request('DELETE', '/worlds/PAGED')).status, 200);
    const again = await engine.request('PUT', '/worlds/PAGED', gone);
    assert.deepEqual(again, {
      status: 409,
      body: {
        error: 'This world was deleted since you opened it. Reload the list to see the worlds there are now.',
        code: 'version_conflict',
      },
    });
    assert.equal((await engine.request('GET', '/worlds/PAGED')).status, 404);
    // Made again, it never takes a revision an editor of the old one could hold.
    const remade = await engine.request('PUT', '/worlds/PAGED?answer=brief', buildWorld());
    assert.ok(remade.body.version > gone.version);
  });

  it('lets exactly one of two saves of the same version through', async () => {
    const read = (await engine.request('GET', '/worlds/PAGEB')).body;
    const answers = await Promise.all(
      [2, 10].map((weather) => engine.request('PUT', '/worlds/PAGEB?answer=brief', { ...read, weather })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    const winner = answers.findIndex((a) => a.status === 200);
    assert.equal((await engine.request('GET', '/worlds/PAGEB')).body.weather, [2, 10][winner]);
  });

  it('refuses bad list queries and unknown routes', async () => {
    const bad = await engine.request('GET', '/worlds?limit=-1');
    assert.deepEqual(bad, { status: 400, body: { error: 'limit must be a non-negative integer.' } });
    assert.equal((await engine.request('GET', '/nope')).status, 404);
    assert.equal((await engine.request('PATCH', '/worlds/START')).status, 404);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await engine.request('PUT', '/worlds/HUGE', `"${'x'.repeat(17 * 1024 * 1024)}"`);
    assert.equal(res.status, 413);
    assert.match(res.body.error, /larger than 16 MB/);
  });

  it('deletes a world', async () => {
    assert.deepEqual(await engine.request('DELETE', '/worlds/pagea'), {
      status: 200,
      body: { message: 'World PAGEA deleted.' },
    });
    assert.equal((await engine.request('GET', '/worlds/PAGEA')).status, 404);
    assert.deepEqual(await engine.request('DELETE', '/worlds/PAGEA'), {
      status: 404,
      body: { error: 'World PAGEA not found.' },
    });
  });
});
