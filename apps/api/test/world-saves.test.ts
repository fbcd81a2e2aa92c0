// A whole-world save keeps the world's size and its tiles' shape, and If-Match is compared strongly (issue 21,
// ADR 0035): through the api to a real engine, on both databases.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { etagOf, versionedWriteMessages as m, worldShapeMessages } from '@canopy/contract';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
type Json = any;

describeEachDatabase('whole-world saves: size, tile shape and If-Match', (api) => {
  let owner: Session;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api().request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body, headers });
  const start = async (): Promise<Json> => (await call('GET', '/worlds/START')).body;

  before(async () => {
    owner = await signInRegistered(api());
    const server = `wsz${api().dialect[0]}${process.pid % 1000}`;
    await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
    await call('POST', `/${server}/start`);
    await waitForStatus(api(), server, 'ONLINE');
  });

  it('refuses to resize an existing world (400 world_size_fixed) and changes nothing', async () => {
    const world = await start();
    assert.deepEqual([world.width, world.height], [100, 60]);
    const tile = world.blocks[0];
    const sizeFixed = worldShapeMessages.sizeFixed('START', 100, 60);
    assert.equal(sizeFixed, "A world's size cannot be changed: START is 100 × 60.");
    for (const [width, height] of [
      [200, 200],
      [60, 100],
    ] as const) {
      const blocks = new Array(width * height).fill(tile);
      const res = await call('PUT', '/worlds/START', { ...world, width, height, blocks });
      assert.deepEqual(
        [res.status, res.body],
        [400, { error: sizeFixed, code: 'world_size_fixed' }],
        `${width}×${height}`,
      );
    }
    assert.deepEqual(await start(), world, 'START is still 100 × 60, at the same version');

    // A new world may have any size up to 200 × 200 (40,000 tiles); the same save then keeps it.
    const big = { ...world, name: undefined, id: undefined, version: undefined, width: 200, height: 200 };
    const created = await call('PUT', '/worlds/BIGONE', { ...big, blocks: new Array(40_000).fill(tile) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const again = await call('PUT', '/worlds/BIGONE', {
      ...big,
      version: created.body.version,
      weather: 3,
      blocks: new Array(40_000).fill(tile),
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal((await call('DELETE', '/worlds/BIGONE')).status, 200);
  });

  it('refuses a tile with a property of its own by name, not with zod text', async () => {
    const world = await start();
    const blocks = world.blocks.map((b: Json, i: number) => (i === 3 ? { ...b, junk: 'x'.repeat(300) } : b));
    const res = await call('PUT', '/worlds/START', { ...world, blocks });
    assert.deepEqual([res.status, res.body.error], [400, `blocks.3: ${worldShapeMessages.unknownTileField(['junk'])}`]);
    assert.deepEqual(await start(), world);
  });

  it('a weak If-Match never matches (412); If-Match and version disagreeing is 400 version_mismatch', async () => {
    const world = await start();
    const { version, ...unversioned } = world;
    const weak = await call('PUT', '/worlds/START', { ...unversioned, weather: 4 }, { 'if-match': `W/"${version}"` });
    assert.deepEqual([weak.status, weak.body], [412, { error: m.weakIfMatch, code: 'precondition_failed' }]);
    const disagree = await call('PUT', '/worlds/START', { ...world, weather: 4 }, { 'if-match': etagOf(version + 1) });
    assert.deepEqual([disagree.status, disagree.body], [400, { error: m.versionsDisagree, code: 'version_mismatch' }]);
    assert.deepEqual(await start(), world, 'neither changed anything');
    const strong = await call('PUT', '/worlds/START', { ...unversioned, weather: 4 }, { 'if-match': etagOf(version) });
    assert.equal(strong.status, 200, JSON.stringify(strong.body));
  });
});
