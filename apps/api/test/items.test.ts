import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { ITEMS_PAGE_SIZE, ipResponseSchema, itemsPageSchema, messages } from '@canopy/contract';
import { createItem, encodeItemsDat } from '@canopy/formats';
import { encodeRtpack } from '@canopy/formats/node';
import { detectPublicIp } from '../src/config.ts';
import { installItemDatabase } from '../src/items/install.ts';
import { serversRepo } from '../src/servers/servers.repo.ts';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { serverFiles } from './support/server-files.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const CUSTOM_TEXTURE = 'custom_0123456789abcdef.rttex';
const bundledSheet = readFileSync(new URL(import.meta.resolve('@canopy/formats/assets/cache/tiles_page1.rttex')));

/** GET with raw bytes and headers, for /cache (the harness reads JSON bodies only). */
async function getRaw(url: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A path sent exactly as written (fetch would resolve `..` before sending it). */
function rawPath(base: string, path: string, token: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describeEachDatabase('item database', (api) => {
  let owner: Session;
  let other: Session;
  let ownerDir = '';
  let ownerServer = '';
  /** Writes a file of the owner's server through its engine's file API, as the api does. */
  const writeOwnerFile = async (name: string, bytes: Uint8Array) =>
    (await serverFiles(api(), ownerServer)).write(name, bytes);
  const items = (s: Session, query = '') => api().request('GET', `/items${query}`, { token: s.sessionToken });

  before(async () => {
    owner = await signInRegistered(api());
    other = await signInRegistered(api());
    const name = `itm${api().dialect[0]}${process.pid % 10000}`;
    const created = await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: name },
    });
    assert.ok(created.status < 300, JSON.stringify(created.body));
    const row = await serversRepo.findByOwner(api().ctx.db, owner.user.id);
    ownerServer = row?.id ?? '';
    // Where the local driver keeps the server's data: only the symlink test below plants something there by hand.
    ownerDir = join(api().ctx.config.dataDir, 'servers', ownerServer);
  });

  it('pages through the whole bundled database with a total count', async () => {
    const first = await items(owner);
    assert.equal(first.status, 200);
    const page = itemsPageSchema.parse(first.body);
    assert.equal(page.total, 336);
    assert.equal(page.pageSize, ITEMS_PAGE_SIZE);
    assert.deepEqual(
      page.items.map((i) => i.id),
      Array.from({ length: ITEMS_PAGE_SIZE }, (_, i) => i),
    );
    const second = itemsPageSchema.parse((await items(owner, '?page=2')).body);
    assert.equal(second.items[0]?.id, ITEMS_PAGE_SIZE);
    const past = itemsPageSchema.parse((await items(owner, '?page=999')).body);
    assert.deepEqual(past.items, []);
    assert.equal(past.total, 336);
  });

  it('filters by name, rarity, clothing type and item kind', async () => {
    const dirt = itemsPageSchema.parse((await items(owner, '?name=DIRT')).body);
    assert.ok(dirt.items.length > 0);
    assert.ok(dirt.items.every((i) => i.name.toLowerCase().includes('dirt')));
    const byId = itemsPageSchema.parse((await items(owner, '?name=2')).body);
    assert.ok(byId.items.some((i) => i.id === 2 && i.name === 'Dirt'));

    const rare = itemsPageSchema.parse((await items(owner, '?rarity=5')).body);
    assert.ok(rare.total > 0 && rare.items.every((i) => i.rarity === 5));
    const hats = itemsPageSchema.parse((await items(owner, '?clothingType=0')).body);
    assert.ok(hats.total > 0 && hats.items.every((i) => i.clothing_type === 0 && i.item_kind === 7));
    const seeds = itemsPageSchema.parse((await items(owner, '?itemKind=3&page=1')).body);
    assert.ok(seeds.total > 100 && seeds.items.every((i) => i.item_kind === 3));
    const any = itemsPageSchema.parse((await items(owner, '?rarity=0&clothingType=-1&itemKind=-1&name=')).body);
    assert.equal(any.total, 336);
    const none = itemsPageSchema.parse((await items(owner, '?name=no-such-item-anywhere')).body);
    assert.deepEqual([none.total, none.items], [0, []]);
  });

  it('refuses bad query values with a message naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?rarity=21', 'rarity must be an integer from 0 to 20 (0 means any).'],
      ['?rarity=1.5', 'rarity must be an integer from 0 to 20 (0 means any).'],
      ['?clothingType=9', 'clothingType must be an integer from -1 to 8 (-1 means any).'],
      ['?itemKind=abc', 'itemKind must be an integer from -1 to 8 (-1 means any).'],
      ['?page=0', 'page must be an integer from 1 to 100000 (pages start at 1).'],
      [`?name=${'x'.repeat(101)}`, 'name must be at most 100 characters.'],
    ];
    for (const [query, error] of cases) {
      const res = await items(owner, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, error, query);
    }
  });

  it('needs a signed-in, registered user (/all-items: signed in, for the inventory editors)', async () => {
    assert.equal((await api().request('GET', '/items')).status, 401);
    const unregistered = await signIn(api());
    for (const path of ['/items', '/ip', '/cache/tiles_page1.rttex', '/all-items']) {
      const res = await api().request('GET', path, { token: unregistered.sessionToken });
      assert.equal(res.status, path === '/all-items' ? 200 : 403, path);
      if (res.status === 403) assert.equal(res.body.error, messages.notRegistered, path);
    }
  });

  it('refuses a banned user the item pages and textures, but not the game address (the setup guide reads it)', async () => {
    const banned = await signInRegistered(api());
    await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [banned.user.id]);
    for (const path of ['/items', '/cache/tiles_page1.rttex', '/ip']) {
      const res = await api().request('GET', path, { token: banned.sessionToken });
      assert.equal(res.status, path === '/ip' ? 200 : 403, path);
      if (res.status === 403) assert.equal(res.body.error, messages.bannedPage, path);
    }
  });

  it("lays the owner's custom items over the base, for the owner only, and follows their changes", async () => {
    // Saved as the Custom Items tab saves them (PUT item-config), with the texture in the server's cache.
    const write = async (items: unknown[]) => {
      const saved = await api().request('PUT', `/users/${owner.user.id}/server/item-config`, {
        token: owner.sessionToken,
        body: { items },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    };
    await writeOwnerFile(`cache/${CUSTOM_TEXTURE}`, bundledSheet);
    await write([
      { ID: 2, Name: 'Golden Dirt', rarity: 7 },
      {
        ID: 1200,
        Name: 'Moon Cape',
        rarity: 999,
        texture: { file: CUSTOM_TEXTURE, texture_x: 0, texture_y: 0, item_kind: 7, clothing_type: 6 },
      },
    ]);
    const mine = itemsPageSchema.parse((await items(owner, '?name=golden')).body);
    assert.deepEqual(
      mine.items.map((i) => [i.id, i.name, i.rarity]),
      [[2, 'Golden Dirt', 7]],
    );
    const cape = itemsPageSchema.parse((await items(owner, '?clothingType=6&name=moon')).body).items[0];
    assert.deepEqual(cape, {
      id: 1200,
      name: 'Moon Cape',
      rarity: 999,
      clothing_type: 6,
      item_kind: 7,
      texture: CUSTOM_TEXTURE,
      texture_x: 0,
      texture_y: 0,
    });
    assert.equal(itemsPageSchema.parse((await items(owner)).body).total, 337);
    const all = await api().request('GET', '/all-items', { token: owner.sessionToken });
    assert.ok(
      all.body.items.some((i: { item_id: number; name: string }) => i.item_id === 1200 && i.name === 'Moon Cape'),
    );

    assert.equal(itemsPageSchema.parse((await items(other, '?name=golden')).body).total, 0, 'not for other users');
    assert.equal(itemsPageSchema.parse((await items(other)).body).total, 336);
    const theirs = await api().request('GET', '/all-items', { token: other.sessionToken });
    assert.ok(!theirs.body.items.some((i: { item_id: number }) => i.item_id === 1200));

    await write([{ ID: 2, Name: 'Silver Dirt', rarity: 3 }]);
    assert.equal(
      itemsPageSchema.parse((await items(owner, '?name=silver')).body).total,
      1,
      'a changed file is re-read',
    );
    assert.equal(itemsPageSchema.parse((await items(owner)).body).total, 336);
  });

  it('serves base textures with an ETag and revalidation, and answers 304 to a matching If-None-Match', async () => {
    const res = await getRaw(`${api().url}/cache/tiles_page1.rttex`, owner.sessionToken);
    assert.equal(res.status, 200);
    assert.ok(res.bytes.equals(bundledSheet));
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.equal(res.headers.get('cache-control'), 'private, max-age=300, must-revalidate');
    const etag = res.headers.get('etag') ?? '';
    assert.match(etag, /^"[\w-]{22}"$/);
    const again = await getRaw(`${api().url}/cache/tiles_page1.rttex`, owner.sessionToken, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.bytes.length, 0);
    const stale = await getRaw(`${api().url}/cache/tiles_page1.rttex`, owner.sessionToken, { 'if-none-match': '"x"' });
    assert.equal(stale.status, 200);
    assert.equal((await getRaw(`${api().url}/cache/tiles_page1.rttex`, '')).status, 401);
  });

  it("serves the caller's own custom textures as immutable, and nobody else's", async () => {
    const sheet = encodeRtpack({ width: 32, height: 32, rgba: new Uint8Array(32 * 32 * 4).fill(200) });
    await writeOwnerFile(`cache/${CUSTOM_TEXTURE}`, sheet);
    const mine = await getRaw(`${api().url}/cache/${CUSTOM_TEXTURE}`, owner.sessionToken);
    assert.equal(mine.status, 200);
    assert.ok(mine.bytes.equals(Buffer.from(sheet)));
    assert.equal(mine.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    const etag = mine.headers.get('etag') ?? '';
    assert.equal(
      (await getRaw(`${api().url}/cache/${CUSTOM_TEXTURE}`, owner.sessionToken, { 'if-none-match': etag })).status,
      304,
    );
    const theirs = await getRaw(`${api().url}/cache/${CUSTOM_TEXTURE}`, other.sessionToken);
    assert.equal(theirs.status, 404);
    assert.equal(JSON.parse(theirs.bytes.toString()).error, 'Texture not found.');
  });

  it('reaches nothing outside the texture set, whatever the path', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'canopy-outside-'));
    writeFileSync(join(outside, 'secret.rttex'), 'secret');
    symlinkSync(join(outside, 'secret.rttex'), join(ownerDir, 'cache', 'custom_fedcba9876543210.rttex'));
    const token = owner.sessionToken;
    const refused = [
      '/cache/..%2F..%2Fcanopy.db',
      '/cache/%2E%2E%2Fsession-secret',
      '/cache/..%2F..%2Fservers%2Fx%2Fengine.db',
      `/cache/${encodeURIComponent(join(outside, 'secret.rttex'))}`,
      '/cache/%00tiles_page1.rttex',
      '/cache/tiles_page1.rttex%00.png',
      '/cache/.hidden.rttex',
      '/cache/items.dat',
      '/cache/nothere.rttex',
      '/cache/custom_fedcba9876543210.rttex',
      '/cache/..%5C..%5Ccanopy.db',
      '/cache/../canopy.db',
      '/cache/../../../etc/passwd',
      '/cache//etc/passwd',
    ];
    for (const path of refused) {
      const status = await rawPath(api().url, path, token);
      assert.ok(status === 400 || status === 404, `${path} answered ${status}`);
    }
  });

  it('answers the detected game address on GET /ip', async () => {
    const res = await api().request('GET', '/ip', { token: owner.sessionToken });
    assert.equal(res.status, 200);
    assert.deepEqual(ipResponseSchema.parse(res.body), { SERVER: { IP: detectPublicIp() } });
  });

  it("switches to an operator's installed database without a restart", async () => {
    const source = mkdtempSync(join(tmpdir(), 'canopy-operator-'));
    const dat = encodeItemsDat({
      version: 26,
      items: [0, 1, 2].map((id) => createItem(id, { name: `Operator ${id}`, texture: 'ops.rttex', rarity: 3 })),
    });
    writeFileSync(join(source, 'items.dat'), dat);
    mkdirSync(join(source, 'cache'));
    writeFileSync(join(source, 'cache', 'ops.rttex'), bundledSheet);
    await installItemDatabase(api().ctx.config.itemsDir, join(source, 'items.dat'), join(source, 'cache'));
    api().clock.now += 5000; // past the api's re-check interval
    const page = itemsPageSchema.parse((await items(other)).body);
    assert.deepEqual(
      page.items.map((i) => i.name),
      ['Operator 0', 'Operator 1', 'Operator 2'],
    );
    assert.equal((await getRaw(`${api().url}/cache/ops.rttex`, other.sessionToken)).status, 200);
    assert.equal((await getRaw(`${api().url}/cache/tiles_page1.rttex`, other.sessionToken)).status, 404);
  });

  it("starts engines on the operator's items.dat", async () => {
    const row = await serversRepo.findByOwner(api().ctx.db, owner.user.id);
    const name = row?.name ?? '';
    const start = await api().request('POST', `/users/${owner.user.id}/server/${name}/start`, {
      token: owner.sessionToken,
    });
    assert.ok(start.status < 300, JSON.stringify(start.body));
    await waitForStatus(api(), name, 'ONLINE');
    const loaded = () =>
      api()
        .ctx.servers.runtime.consoleHistory(row?.id ?? '')
        .find((l) => /Loaded \d+ items/.test(l));
    for (let i = 0; i < 200 && !loaded(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(loaded() ?? 'no "Loaded" line', /Loaded 3 items \(items\.dat version 26\)/);
    await api().request('POST', `/users/${owner.user.id}/server/${name}/stop`, { token: owner.sessionToken });
    await waitForStatus(api(), name, 'OFFLINE');
  });
});

describeEachDatabase(
  'GET /ip from CANOPY_PUBLIC_IP',
  (api) => {
    it('answers the configured address', async () => {
      const user = await signInRegistered(api());
      const res = await api().request('GET', '/ip', { token: user.sessionToken });
      assert.deepEqual(res.body, { SERVER: { IP: 'play.example.com' } });
    });
  },
  { CANOPY_PUBLIC_IP: 'play.example.com' },
);
