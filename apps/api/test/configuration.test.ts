import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  configurationMessages as c,
  creatorListResponseSchema,
  defaultSettings,
  engineConfigFiles,
  hostingMessages,
  messages,
  newbieKitSchema,
  serverPageMessages as p,
  profileResponseSchema,
} from '@canopy/contract';
import { settingsRepo } from '../src/settings/settings.repo.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { serverFiles, serverFileText } from './support/server-files.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const MB = 1024 * 1024;

describeEachDatabase('configuration: creator list, autofarm delay and newbie kit', (api) => {
  let owner: Session;
  let name = '';
  let serverId = '';
  const call = (s: Session, method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
  // The file the engine reads, as its file API gives it.
  const file = async (key: keyof typeof engineConfigFiles) =>
    JSON.parse((await serverFileText(api(), serverId, engineConfigFiles[key])) ?? 'null');
  const creators = async () => (await call(owner, 'GET', '/creator-list')).body.creatorList as string[];
  const setFlags = (flags: Partial<typeof defaultSettings>) =>
    settingsRepo.save(api().ctx.db, { ...defaultSettings, ...flags });

  before(async () => {
    owner = await signInRegistered(api());
    name = `conf${api().dialect[0]}${process.pid % 1000}`;
    assert.equal((await call(owner, 'POST', '', { serverName: name })).status, 201);
    serverId = (await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]))
      ?.id as string;
  });

  it('edits the creator list of an offline server, with the spec texts', async () => {
    const empty = await call(owner, 'GET', '/creator-list');
    assert.equal(empty.status, 200);
    assert.deepEqual(creatorListResponseSchema.parse(empty.body), { creatorList: [] });

    const added = await call(owner, 'POST', '/creator-list', { growId: '  Builder1 ' });
    assert.equal(added.status, 200);
    assert.deepEqual(added.body, { message: c.creatorAdded });
    assert.deepEqual(await creators(), ['Builder1'], 'trimmed');
    assert.deepEqual(await file('creators'), ['Builder1'], 'the file the engine reads');

    const twice = await call(owner, 'POST', '/creator-list', { growId: 'builder1' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error, c.creatorExists('builder1'));
    assert.equal((await call(owner, 'POST', '/creator-list', { growId: '   ' })).body.error, c.growIdRequired);
    assert.equal((await call(owner, 'POST', '/creator-list', {})).body.error, c.growIdRequired);
    assert.equal(
      (await call(owner, 'POST', '/creator-list', { growId: 'no spaces' })).body.error,
      messages.growIdInvalid,
    );
    assert.deepEqual(await creators(), ['Builder1'], 'refusals change nothing');

    const removed = await call(owner, 'DELETE', '/creator-list/BUILDER1');
    assert.deepEqual(removed.body, { message: c.creatorRemoved });
    assert.deepEqual(await creators(), []);
    const missing = await call(owner, 'DELETE', '/creator-list/Builder1');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, c.creatorMissing('Builder1'));

    const log = await api().ctx.db.all<{ action: string; details: string }>(
      "SELECT action, details FROM activity_logs WHERE action LIKE 'Creator%' AND details LIKE ?",
      [`${name}:%`],
    );
    assert.deepEqual(log.map((l) => l.action).sort(), ['Creator added', 'Creator removed']);
  });

  it('lands both of two creator adds sent at once', async () => {
    const [a, b, d] = await Promise.all(
      ['Racer1', 'Racer2', 'Racer3'].map((growId) => call(owner, 'POST', '/creator-list', { growId })),
    );
    assert.deepEqual([a?.status, b?.status, d?.status], [200, 200, 200]);
    assert.deepEqual((await creators()).sort(), ['Racer1', 'Racer2', 'Racer3']);
  });

  it('sets the autofarm delay, which the profile carries', async () => {
    const profile = async () =>
      profileResponseSchema.parse(
        (await api().request('GET', `/users/${owner.user.id}/profile`, { token: owner.sessionToken })).body,
      ).profile.server?.config.autofarmDelay;
    assert.equal(await profile(), 1000, 'the default');
    for (const amount of ['abc', '', null, true, Number.NaN]) {
      const bad = await call(owner, 'POST', '/farm-delay', { amount });
      assert.equal(bad.status, 400, `amount ${String(amount)}`);
      assert.equal(bad.body.error, c.invalidFarmDelay);
    }
    assert.equal((await call(owner, 'POST', '/farm-delay', {})).body.error, c.invalidFarmDelay);
    assert.equal((await call(owner, 'POST', '/farm-delay', { amount: -1 })).status, 400);
    const saved = await call(owner, 'POST', '/farm-delay', { amount: '1500' });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body, { message: c.farmDelayUpdated });
    assert.equal(await profile(), 1500);
    assert.equal((await file('serverConfig')).autofarmDelay, 1500);
  });

  it('reads and replaces the newbie kit; unknown items are refused and an empty kit is normalised', async () => {
    const first = await call(owner, 'GET', '/newbie-kit');
    assert.equal(first.status, 200);
    // With the version of the file (config-versions.test.ts).
    assert.deepEqual(first.body, {
      ITEMS: [{ Gemss: 0, Coin: 0, Seasonals_Token: 0, items: [] }],
      version: first.body.version,
    });

    const kit = {
      ITEMS: [
        {
          Gemss: 500,
          Coin: 20,
          Seasonals_Token: 0,
          items: [
            [2, 10],
            [2, 5],
            [10, 1],
          ],
        },
      ],
    };
    const saved = await call(owner, 'PUT', '/newbie-kit', kit);
    assert.equal(saved.status, 200);
    assert.deepEqual(
      saved.body,
      { message: c.newbieKitUpdated, applied: 'next_start', version: saved.body.version },
      'a stopped server stays so',
    );
    const stored = newbieKitSchema.parse((await call(owner, 'GET', '/newbie-kit')).body);
    assert.deepEqual(
      stored.ITEMS[0]?.items,
      [
        [2, 15],
        [10, 1],
      ],
      'one entry per item, quantities added up',
    );
    assert.equal(stored.ITEMS[0]?.Gemss, 500);

    const unknown = await call(owner, 'PUT', '/newbie-kit', { ITEMS: [{ ...kit.ITEMS[0], items: [[65000, 1]] }] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'unknown_item');
    assert.equal(unknown.body.error, c.unknownKitItems([65000]));
    const zero = await call(owner, 'PUT', '/newbie-kit', { ITEMS: [{ ...kit.ITEMS[0], items: [[2, 0]] }] });
    assert.equal(zero.status, 400);
    assert.match(zero.body.error, new RegExp(c.invalidQuantity.replace('.', '\\.')));
    assert.equal((await call(owner, 'GET', '/newbie-kit')).body.ITEMS[0].Gemss, 500, 'refusals change nothing');

    // A custom item of this server is a valid kit item.
    const mine = JSON.stringify({ items: [{ ID: 65000, Name: 'Mine' }] });
    await (await serverFiles(api(), serverId)).write(engineConfigFiles.customItems, Buffer.from(mine));
    assert.equal((await call(owner, 'PUT', '/newbie-kit', { ITEMS: [{ items: [[65000, 1]] }] })).status, 200);

    assert.equal((await call(owner, 'PUT', '/newbie-kit', { ITEMS: [] })).status, 200);
    const emptied = (await call(owner, 'GET', '/newbie-kit')).body;
    assert.deepEqual(emptied, {
      ITEMS: [{ Gemss: 0, Coin: 0, Seasonals_Token: 0, items: [] }],
      version: emptied.version,
    });
  });

  it('applies General changes to the running engine at once, and refuses writes while it starts', async () => {
    assert.equal((await call(owner, 'POST', `/${name}/start`)).status, 202);
    const starting = await call(owner, 'POST', '/creator-list', { growId: 'Latecomer' });
    assert.equal(starting.status, 409);
    assert.equal(starting.body.error, p.serverStarting);
    assert.equal((await call(owner, 'PUT', '/newbie-kit', { ITEMS: [] })).body.error, p.serverStarting);
    assert.equal((await call(owner, 'GET', '/creator-list')).status, 200, 'reads work in any state');
    await waitForStatus(api(), name, 'ONLINE');

    const control = api().ctx.servers.runtime.control(serverId);
    assert.ok(control);
    assert.equal((await call(owner, 'POST', '/farm-delay', { amount: 2500 })).status, 200);
    assert.equal((await call(owner, 'POST', '/creator-list', { growId: 'LiveOne' })).status, 200);
    // The engine's reload printed what it now holds: the api asked for it, nobody else did.
    const reloaded = /Reloaded config: 4 creator\(s\), autofarm delay 2500 ms/;
    const history = await control.request<{ lines: { line: string }[] }>('GET', '/console/history');
    assert.ok(
      history.lines.some((l) => reloaded.test(l.line)),
      'the engine re-read creators and autofarm delay',
    );
  });

  it('refuses a config write when the storage limit is reached, and changes nothing', async () => {
    const limit = await api().ctx.db.get<{ mb: number }>('SELECT storage_limit_mb AS mb FROM users WHERE id = ?', [
      owner.user.id,
    ]);
    await sql(api(), 'UPDATE users SET storage_limit_mb = ? WHERE id = ?', [12, owner.user.id]);
    // 12 MB the server stores, written through its engine (a file of its texture cache).
    const files = await serverFiles(api(), serverId);
    await files.write('cache/filler.bin', Buffer.alloc(12 * MB));
    const before = await creators();
    const full = await call(owner, 'POST', '/creator-list', { growId: 'NoRoom' });
    assert.equal(full.status, 409);
    assert.equal(full.body.code, 'storage_full');
    assert.equal(full.body.error, hostingMessages.storageFullWrite);
    assert.equal((await call(owner, 'POST', '/farm-delay', { amount: 10 })).body.code, 'storage_full');
    assert.equal((await call(owner, 'PUT', '/newbie-kit', { ITEMS: [] })).body.code, 'storage_full');
    assert.deepEqual(await creators(), before);
    await files.remove('cache/filler.bin');
    await sql(api(), 'UPDATE users SET storage_limit_mb = ? WHERE id = ?', [Number(limit?.mb), owner.user.id]);
  });

  it('follows permissions, bans and the admin switches', async () => {
    const helper = await signInRegistered(api());
    const invite = (permissions: string[]) =>
      call(owner, 'POST', '/collaborators', { discordId: helper.user.id, permissions });
    assert.equal((await invite(['worlds:manage'])).status, 201);
    for (const [method, path, body] of [
      ['GET', '/creator-list'],
      ['POST', '/creator-list', { growId: 'Sneaky1' }],
      ['DELETE', '/creator-list/LiveOne'],
      ['POST', '/farm-delay', { amount: 5 }],
      ['GET', '/newbie-kit'],
      ['PUT', '/newbie-kit', { ITEMS: [] }],
    ] as const) {
      const refused = await call(helper, method, path, body);
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(refused.body.error, p.noPermission);
    }
    assert.ok((await creators()).includes('LiveOne'), 'nothing changed');
    await call(owner, 'PUT', `/collaborators/${helper.user.id}`, { permissions: ['config:manage'] });
    assert.equal((await call(helper, 'POST', '/creator-list', { growId: 'Helper1' })).status, 200);

    await setFlags({ disableGeneralConfig: true });
    for (const [method, path, body] of [
      ['GET', '/creator-list'],
      ['POST', '/creator-list', { growId: 'Locked1' }],
      ['DELETE', '/creator-list/Helper1'],
      ['POST', '/farm-delay', { amount: 'not even a number' }],
    ] as const) {
      const refused = await call(owner, method, path, body);
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(refused.body.error, messages.featureDisabled);
    }
    assert.equal((await call(owner, 'GET', '/newbie-kit')).status, 200, 'the kit has its own switch');
    await setFlags({ disableNewbieKit: true });
    assert.equal((await call(owner, 'GET', '/newbie-kit')).body.error, messages.featureDisabled);
    assert.equal((await call(owner, 'PUT', '/newbie-kit', { ITEMS: [] })).body.error, messages.featureDisabled);
    assert.equal((await call(owner, 'GET', '/creator-list')).status, 200, 'General is on again');

    // Admins bypass the switches.
    await setFlags({ disableGeneralConfig: true, disableNewbieKit: true });
    await sql(api(), 'UPDATE users SET is_admin = 1 WHERE id = ?', [owner.user.id]);
    assert.equal((await call(owner, 'GET', '/creator-list')).status, 200);
    assert.equal((await call(owner, 'PUT', '/newbie-kit', { ITEMS: [] })).status, 200);
    await sql(api(), 'UPDATE users SET is_admin = 0 WHERE id = ?', [owner.user.id]);
    await setFlags({});

    await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [helper.user.id]);
    const banned = await call(helper, 'GET', '/creator-list');
    assert.equal(banned.status, 403);
    assert.equal(banned.body.error, p.bannedConfiguration);
  });

  it('answers the no-server text to a user without a server', async () => {
    const lonely = await signInRegistered(api());
    const none = await call(lonely, 'GET', '/creator-list');
    assert.equal(none.status, 404);
    assert.equal(none.body.error, p.noServer);
  });
});
