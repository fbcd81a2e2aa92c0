import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  adminUserMessages,
  adminBanMessages as b,
  bannedServerNamePageSchema,
  bulkActionResponseSchema,
  hostingMessages as h,
} from '@canopy/contract';
import { type BanCast, banCast, banRow, refusedToAllButHolders } from './support/admin-bans.ts';
import { makeAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

const nameBanned = async (api: TestApi, name: string) =>
  (await api.ctx.db.get('SELECT name FROM banned_server_names WHERE name_key = ?', [name.toLowerCase()])) !== undefined;

describeEachDatabase('admin banned server names and bulk actions', (api) => {
  let c: BanCast;
  before(async () => {
    c = await banCast(api());
  });

  it('banned server names: list (bans:view), add and remove (bans:manage); creation refused while banned', async () => {
    const a = api();
    const name = `Bad${a.dialect[0]}${process.pid % 10000}`;
    await refusedToAllButHolders(api(), c, 'GET', '/admin/banned-servers', undefined, null);
    await refusedToAllButHolders(
      api(),
      c,
      'POST',
      '/admin/banned-servers',
      { serverName: name, reason: 'rude' },
      c.bansView,
    );
    assert.equal(await nameBanned(a, name), false);

    for (const body of [undefined, {}, { serverName: name }, { reason: 'rude' }, { serverName: ' ', reason: 'x' }]) {
      const res = await a.request('POST', '/admin/banned-servers', { body, token: c.manager.sessionToken });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, b.serverNameAndReasonRequired);
    }
    assert.equal(await nameBanned(a, name), false);

    const added = await a.request('POST', '/admin/banned-servers', {
      body: { serverName: name, reason: 'rude' },
      token: c.manager.sessionToken,
    });
    assert.equal(added.status, 200);
    assert.deepEqual(added.body, { message: b.serverNameBanned(name) });
    const dup = await a.request('POST', '/admin/banned-servers', {
      body: { serverName: name.toUpperCase(), reason: 'again' },
      token: c.sup.sessionToken,
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error, b.serverNameAlreadyBanned);

    const list = bannedServerNamePageSchema.parse(
      (await a.request('GET', `/admin/banned-servers?search=${name}`, { token: c.bansView.sessionToken })).body,
    );
    assert.deepEqual(
      list.items.map((i) => [i.serverName, i.reason, i.bannedBy]),
      [[name, 'rude', c.manager.growId]],
    );
    const bySuper = await a.request('GET', '/admin/banned-servers', { token: c.sup.sessionToken });
    assert.equal(bySuper.status, 200);
    assert.equal(bannedServerNamePageSchema.parse(bySuper.body).items[0]?.serverName, name, 'newest first');

    const creator = await signInRegistered(a);
    await sql(a, 'UPDATE users SET available_slot = 1 WHERE id = ?', [creator.user.id]);
    const create = (serverName: string) =>
      a.request('POST', `/users/${creator.user.id}/server`, { token: creator.sessionToken, body: { serverName } });
    const refused = await create(name.toLowerCase());
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, h.serverNameBanned);

    const path = `/admin/banned-servers/${name.toLowerCase()}`;
    await refusedToAllButHolders(api(), c, 'DELETE', path, undefined, c.bansView);
    assert.equal(await nameBanned(a, name), true);
    const removed = await a.request('DELETE', path, { token: c.sup.sessionToken });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { message: b.serverNameUnbanned(name.toLowerCase()) });
    const gone = await a.request('DELETE', path, { token: c.sup.sessionToken });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error, b.serverNameNotBanned);
    assert.equal((await create(name)).status, 201);
  });

  it('bulk: users:bulk_actions; each user on its own, failures in errors[] while the rest succeed', async () => {
    const a = api();
    const users = await Promise.all(Array.from({ length: 3 }, () => signInRegistered(a)));
    const ids = users.map((u) => u.user.id);
    const body = {
      userIds: [...ids, c.noPerm.user.id, '123'],
      action: 'ban',
      banInfo: { reason: 'raid', duration: '7d' },
    };
    await refusedToAllButHolders(api(), c, 'POST', '/admin/users/bulk-action', body, c.usersView);
    const managerOnly = await signInRegistered(a);
    await makeAdmin(a, managerOnly, ['users:manage']);
    assert.equal(
      (await a.request('POST', '/admin/users/bulk-action', { body, token: managerOnly.sessionToken })).status,
      403,
    );
    for (const id of ids) assert.equal((await banRow(a, id))?.is_banned, 0);

    const res = await a.request('POST', '/admin/users/bulk-action', { body, token: c.manager.sessionToken });
    assert.equal(res.status, 200);
    assert.deepEqual(bulkActionResponseSchema.parse(res.body), {
      message: b.bulkDone(3, 2),
      applied: 3,
      errors: [
        { userId: c.noPerm.user.id, name: c.noPerm.growId, error: b.adminCannotBeBanned },
        { userId: '123', name: null, error: b.userNotFound },
      ],
    });
    for (const id of ids) assert.equal((await banRow(a, id))?.banned_by, c.manager.growId);
    assert.equal((await banRow(a, c.noPerm.user.id))?.is_banned, 0);

    const unban = await a.request('POST', '/admin/users/bulk-action', {
      body: { userIds: [ids[0], ids[1]], action: 'unban' },
      token: c.sup.sessionToken,
    });
    assert.deepEqual(unban.body, { message: b.bulkDone(2, 0), applied: 2, errors: [] });
    assert.equal((await banRow(a, ids[2] ?? ''))?.is_banned, 1);

    const slots = async (id: string) =>
      Number((await a.ctx.db.get<{ s: number }>('SELECT available_slot AS s FROM users WHERE id = ?', [id]))?.s);
    await sql(a, 'UPDATE users SET available_slot = 1 WHERE id IN (?, ?)', [ids[0] ?? '', ids[1] ?? '']);
    const add = await a.request('POST', '/admin/users/bulk-action', {
      body: { userIds: [ids[0], ids[1]], action: 'addSlots', amount: 2 },
      token: c.manager.sessionToken,
    });
    assert.equal(add.body.applied, 2);
    assert.equal(await slots(ids[0] ?? ''), 3);
    const set = await a.request('POST', '/admin/users/bulk-action', {
      body: { userIds: [ids[0]], action: 'setSlots', amount: '0' },
      token: c.manager.sessionToken,
    });
    assert.equal(set.body.applied, 1);
    assert.equal(await slots(ids[0] ?? ''), 0);
    const time = await a.request('POST', '/admin/users/bulk-action', {
      body: { userIds: [ids[1]], action: 'setTime', amount: 5 },
      token: c.manager.sessionToken,
    });
    assert.equal(time.body.applied, 1, JSON.stringify(time.body));
  });

  it('bulk: the spec texts for a bad action, ban info or amount; nothing changes', async () => {
    const a = api();
    const target = await signInRegistered(a);
    const id = target.user.id;
    const cases: [unknown, string][] = [
      [{ userIds: [id], action: 'ban' }, b.reasonAndDurationRequired],
      [{ userIds: [id], action: 'ban', banInfo: { reason: 'x' } }, b.reasonAndDurationRequired],
      [{ userIds: [id], action: 'ban', banInfo: { reason: 'x', duration: '' } }, b.reasonAndDurationRequired],
      [{ userIds: [id], action: 'ban', banInfo: { reason: 'x', duration: '9q' } }, adminUserMessages.durationInvalid],
      [
        { userIds: [id], action: 'ban', banInfo: { reason: 'x', duration: '7 days' } },
        adminUserMessages.durationInvalid,
      ],
      [{ userIds: [id], action: 'addTime' }, b.amountInvalid],
      [{ userIds: [id], action: 'addSlots', amount: -1 }, b.amountInvalid],
      [{ userIds: [id], action: 'setTime', amount: 1.5 }, b.amountInvalid],
      [{ userIds: [id], action: 'removeSlots', amount: 'two' }, b.amountInvalid],
      [{ userIds: [id], action: 'addTime', amount: 3651 }, b.amountInvalid],
      [{ userIds: [id], action: 'setSlots', amount: 1001 }, b.amountInvalid],
      [{ userIds: [id], action: 'nuke', amount: 1 }, b.bulkActionInvalid],
      [{ userIds: [], action: 'unban' }, b.bulkUsersRequired],
      [{ userIds: Array.from({ length: 101 }, (_, i) => String(i)), action: 'unban' }, b.bulkTooManyUsers],
    ];
    for (const [body, error] of cases) {
      const res = await a.request('POST', '/admin/users/bulk-action', { body, token: c.sup.sessionToken });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, error, JSON.stringify(body));
    }
    assert.equal((await banRow(a, id))?.is_banned, 0);
  });
});
