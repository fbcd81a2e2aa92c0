import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import {
  CUSTOM_TEXTURE_MAX_BASE64,
  CUSTOM_TEXTURE_MAX_SIDE,
  engineConfigFiles,
  hostingMessages,
  messages,
  serverPageMessages as p,
  customItemsMessages as t,
} from '@canopy/contract';
import { encodeRttxtr, packRtpack, RTPACK_HEADER_SIZE } from '@canopy/formats';
import { encodeRtpack } from '@canopy/formats/node';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { serverFiles, serverFileText } from './support/server-files.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sprite = (side = 32) =>
  encodeRtpack({ width: side, height: side, rgba: new Uint8Array(side * side * 4).fill(90) });

/** A bare RTTXTR header that claims `side`x`side` pixels, in about 1 KB. */
function claimsHuge(side: number): Uint8Array {
  const small = encodeRttxtr({ width: 16, height: 16, rgba: new Uint8Array(16 * 16 * 4) });
  const view = new DataView(small.buffer);
  for (const at of [8, 12, 20, 24, 100, 104]) view.setInt32(at, side, true);
  view.setInt32(108, side * side * 4, true);
  return small;
}

/** An RTPACK whose header says a 32x32 texture but whose zlib stream inflates to 64 MB. */
function zlibBomb(): Uint8Array {
  const honest = encodeRttxtr({ width: 32, height: 32, rgba: new Uint8Array(32 * 32 * 4) });
  const packed = packRtpack(new Uint8Array(64 * 1024 * 1024), (d) => new Uint8Array(deflateSync(d, { level: 9 })));
  new DataView(packed.buffer).setUint32(12, honest.length, true);
  return packed;
}

/** A valid sprite whose RTPACK header claims 4 GB once inflated. */
function claimsInflated(): Uint8Array {
  const claims = sprite();
  new DataView(claims.buffer).setUint32(12, 0xffffffff, true);
  return claims;
}

describeEachDatabase('custom items and custom textures', (api) => {
  let owner: Session;
  let name = '';
  let serverId = '';
  const call = (s: Session, method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
  const upload = (s: Session, rttexBase64: string, extra: Record<string, unknown> = {}) =>
    call(s, 'POST', '/custom-item', { itemName: 'Glow Block', rarity: 999, rttexBase64, properties: {}, ...extra });
  // The server's files as its engine's file API shows them.
  const cacheFiles = async () => (await serverFiles(api(), serverId)).listTextures();
  const itemsFile = async () => (await serverFileText(api(), serverId, engineConfigFiles.customItems)) ?? '';
  const setting = (key: string, on: boolean) =>
    sql(
      api(),
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, String(on)],
    );

  before(async () => {
    owner = await signInRegistered(api());
    name = `cust${api().dialect[0]}${process.pid % 1000}`;
    assert.equal((await call(owner, 'POST', '', { serverName: name })).status, 201);
    const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]);
    serverId = row?.id as string;
  });

  it('reads an empty list, then refuses every hostile upload with a 400 and writes nothing', async () => {
    const empty = await call(owner, 'GET', '/item-config');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { items: [], version: empty.body.version });
    const before = await itemsFile();
    const valid = sprite();
    const hostile: [string, string, RegExp | string][] = [
      ['claims 60000x60000', b64(claimsHuge(60000)), /at most 1024x1024/],
      ['RTPACK claiming 4 GB inflated', b64(claimsInflated()), /at most 4194428/],
      ['zlib bomb', b64(zlibBomb()), /corrupt or larger than its header says/],
      ['truncated', b64(valid.subarray(0, valid.length - 10)), /truncated/],
      ['header only', b64(valid.subarray(0, RTPACK_HEADER_SIZE - 4)), /truncated/],
      ['random bytes', b64(new Uint8Array(2048).map((_, i) => (i * 97 + 13) & 0xff)), /not an RTTEX texture/],
      ['invalid base64', 'not*base64!', t.badBase64],
      ['empty', '', t.fillAll],
    ];
    assert.ok(claimsHuge(60000).length < 2048, 'the 60000x60000 file is tiny');
    for (const [what, data, error] of hostile) {
      const res = await upload(owner, data);
      assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
      if (typeof error === 'string') assert.equal(res.body.error, error, what);
      else assert.match(res.body.error, error, what);
    }
    // A valid texture whose chosen 32x32 cell lies outside it: the item could never be drawn.
    const outside = await upload(owner, b64(valid), { properties: { texture_x: 7, texture_y: 9 } });
    assert.equal(outside.status, 400, JSON.stringify(outside.body));
    assert.equal(outside.body.error, t.cellOutside(7, 9, 32, 32));
    assert.deepEqual(await cacheFiles(), [], 'no texture written');
    assert.equal(await itemsFile(), before, 'custom-items.json untouched');
  });

  it('creates a texture item with the spec defaults and the next id, stored by content hash', async () => {
    // Before the upload: /all-items includes the server's custom items.
    const highestBase = Math.max(
      ...(await api().request('GET', '/all-items', { token: owner.sessionToken })).body.items.map(
        (i: { item_id: number }) => i.item_id,
      ),
    );
    const texture = sprite();
    const res = await upload(owner, b64(texture), { properties: { texture_x: 0, break_hits: 3 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.message, t.created);
    const files = await cacheFiles();
    assert.equal(files.length, 1);
    assert.match(files[0] ?? '', /^custom_[0-9a-f]{16}\.rttex$/);
    const stored = await (await serverFiles(api(), serverId)).read(`cache/${files[0]}`);
    assert.deepEqual(new Uint8Array(stored ?? []), texture);
    const { items } = (await call(owner, 'GET', '/item-config')).body;
    assert.equal(items.length, 1);
    const [item] = items;
    assert.equal(item.ID, highestBase + 1);
    assert.equal(res.body.id, item.ID);
    assert.equal(item.Name, 'Glow Block');
    assert.equal(item.rarity, 999);
    assert.deepEqual(item.texture, {
      file: files[0],
      texture_x: 0,
      texture_y: 0,
      item_kind: 4,
      clothing_type: 6,
      break_hits: 3,
      grow_time: 0,
      collision_type: 1,
    });
    const second = await upload(owner, b64(texture), { itemName: 'Glow Block 2', rarity: 5 });
    assert.equal(second.body.id, item.ID + 1, 'the next id follows the custom items');
    assert.equal((await cacheFiles()).length, 1, 'the same texture is stored once');
    const logged = await api().ctx.db.all<{ details: string }>(
      "SELECT details FROM activity_logs WHERE action = 'Custom item created' AND details LIKE ?",
      [`${name}:%`],
    );
    assert.equal(logged.length, 2);
  });

  it('saves the item list; refuses duplicates, fractions, unknown textures and paths', async () => {
    const { items } = (await call(owner, 'GET', '/item-config')).body;
    const renamed = [
      { ...items[0], Name: 'Bright Block', Extra_Drops: [[2, 3]] },
      items[1],
      { ID: 900, Name: 'Plain' },
    ];
    const saved = await call(owner, 'PUT', '/item-config', { items: renamed });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.message, t.updated);
    const after = (await call(owner, 'GET', '/item-config')).body.items;
    assert.equal(after[0].Name, 'Bright Block');
    assert.equal(after[2].Desc, 'A new custom item.', 'defaults filled in');
    const before = await itemsFile();
    const bad: [string, unknown[], RegExp][] = [
      ['duplicate ids', [renamed[0], { ...renamed[1], ID: renamed[0].ID }], /Duplicate custom item ID/],
      ['fraction', [{ ...renamed[2], Gems: 1.5 }], /^Item 1 \(ID 900\): Gems must be a whole number\.$/],
      [
        'negative',
        [renamed[0], { ...renamed[2], Gems: -3 }],
        /^Item 2 \(ID 900\): Gems must be between 0 and 2147483647\.$/,
      ],
      [
        'a zero drop count',
        [{ ...renamed[2], Extra_Drops: [[2, 0]] }],
        /^Item 1 \(ID 900\): Extra drop count must be between 1 and 200\.$/,
      ],
      [
        'missing texture',
        [{ ...renamed[0], texture: { ...renamed[0].texture, file: 'custom_00000000000000ff.rttex' } }],
        /does not exist/,
      ],
      ['a path', [{ ...renamed[0], texture: { ...renamed[0].texture, file: '../engine.db' } }], /custom texture/],
      ['rarity 1000', [{ ...renamed[2], rarity: 1000 }], /^Item 1 \(ID 900\): Rarity must be between 1 and 999\.$/],
      [
        'an id far past the database',
        [{ ...renamed[2], ID: 60000 }],
        /Item ID 60000 is too high: custom item IDs go up to 1335/,
      ],
    ];
    for (const [what, list, error] of bad) {
      const res = await call(owner, 'PUT', '/item-config', { items: list });
      assert.equal(res.status, 400, what);
      assert.match(res.body.error, error, what);
    }
    assert.equal(await itemsFile(), before, 'nothing written by a refused save');
  });

  it('takes the largest legitimate texture (1024x1024 noise) and refuses a body past the limit with 413', async () => {
    const side = CUSTOM_TEXTURE_MAX_SIDE;
    const noise = new Uint8Array(randomBytes(side * side * 4));
    const largest = encodeRtpack({ width: side, height: side, rgba: noise });
    assert.ok(largest.length > side * side * 4, 'noise does not compress');
    const res = await upload(owner, b64(largest), { itemName: 'Noise Sheet' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const tooBig = await upload(owner, 'A'.repeat(CUSTOM_TEXTURE_MAX_BASE64 + 8 * 1024));
    assert.equal(tooBig.status, 413);
  });

  it('enforces config:manage, the feature flag (admins bypass) and bans', async () => {
    const helper = await signInRegistered(api());
    const allowed = await signInRegistered(api());
    for (const [c, permissions] of [
      [helper, ['console:use']],
      [allowed, ['config:manage']],
    ] as const) {
      const res = await call(owner, 'POST', '/collaborators', { discordId: c.user.id, permissions });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    for (const [method, path] of [
      ['GET', '/item-config'],
      ['PUT', '/item-config'],
      ['POST', '/custom-item'],
    ] as const) {
      const res = await call(helper, method, path, method === 'GET' ? undefined : { items: [] });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error, p.noPermission);
    }
    assert.equal((await call(allowed, 'GET', '/item-config')).status, 200);

    await setting('disableCustomItems', true);
    try {
      for (const [method, path, body] of [
        ['GET', '/item-config', undefined],
        ['PUT', '/item-config', { items: [] }],
        ['POST', '/custom-item', { itemName: 'x', rarity: 1, rttexBase64: b64(sprite()), properties: {} }],
      ] as const) {
        const res = await call(owner, method, path, body);
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.body.error, messages.featureDisabled);
      }
      await sql(api(), 'UPDATE users SET is_admin = 1 WHERE id = ?', [owner.user.id]);
      assert.equal((await call(owner, 'GET', '/item-config')).status, 200, 'an admin bypasses the flag');
      await sql(api(), 'UPDATE users SET is_admin = 0 WHERE id = ?', [owner.user.id]);
    } finally {
      await setting('disableCustomItems', false);
    }

    await sql(api(), 'UPDATE users SET is_banned = 1, ban_expires = NULL WHERE id = ?', [allowed.user.id]);
    const banned = await call(allowed, 'GET', '/item-config');
    assert.equal(banned.status, 403);
    assert.match(banned.body.error, /^Your account is banned\. You cannot /);
  });

  it('refuses an upload when storage is full, writing nothing', async () => {
    const files = await serverFiles(api(), serverId);
    const limit =
      (await api().ctx.db.get<{ mb: number }>('SELECT storage_limit_mb AS mb FROM users WHERE id = ?', [owner.user.id]))
        ?.mb ?? 0;
    await sql(api(), 'UPDATE users SET storage_limit_mb = 1 WHERE id = ?', [owner.user.id]);
    // Filled up to 100 bytes short of the limit, through the engine (a file of its texture cache).
    const used = (await files.usage()).bytes;
    await files.write('cache/filler.bin', Buffer.alloc(Math.max(0, 1024 * 1024 - used - 100)));
    const before = await itemsFile();
    const textures = await cacheFiles();
    try {
      const big = sprite(256);
      const res = await upload(owner, b64(big), { itemName: 'Too Big' });
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.error, hostingMessages.storageFullWrite);
      assert.deepEqual(await cacheFiles(), textures);
      assert.equal(await itemsFile(), before);
    } finally {
      await files.remove('cache/filler.bin');
      await sql(api(), 'UPDATE users SET storage_limit_mb = ? WHERE id = ?', [limit, owner.user.id]);
    }
  });

  it('the engine builds its items.dat with the custom items; a change and a restart change its hash', async () => {
    const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]);
    const id = row?.id as string;
    const hash = async () => {
      // The engine builds items.dat just after READY; wait for the figure rather than for a time.
      for (;;) {
        const stats = await api()
          .ctx.servers.runtime.control(id)
          ?.request<{ itemsDatHash: number | null }>('GET', '/stats');
        if (stats?.itemsDatHash != null) return stats.itemsDatHash;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    assert.equal((await call(owner, 'POST', `/${name}/start`)).status, 202);
    const busy = await call(owner, 'PUT', '/item-config', { items: [] });
    assert.equal(busy.status, 409, 'no changes while the server starts');
    assert.equal(busy.body.error, p.serverStarting);
    const busyUpload = await upload(owner, b64(sprite()));
    assert.equal(busyUpload.body.error, p.serverStarting);
    await waitForStatus(api(), name, 'ONLINE');
    const first = await hash();
    // The engine's own build, not a file of the file API: read where the local driver keeps the server's data.
    const built = readFileSync(join(api().ctx.config.dataDir, 'servers', id, 'effective-items.dat'));
    assert.ok(built.includes(Buffer.from('custom_')), 'the texture item is in the engine items.dat');

    const { items } = (await call(owner, 'GET', '/item-config')).body;
    const saved = await call(owner, 'PUT', '/item-config', {
      items: [...items, { ID: Math.max(...items.map((i: { ID: number }) => i.ID)) + 1, Name: 'Another' }],
    });
    assert.equal(saved.status, 200, 'saving while ONLINE is allowed');
    assert.equal(saved.body.applied, 'restarting', 'the save restarts the running engine itself');
    await waitForStatus(api(), name, 'ONLINE');
    assert.notEqual(await hash(), first);
  });
});
