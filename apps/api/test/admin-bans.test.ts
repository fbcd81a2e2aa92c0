import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  adminUserMessages,
  adminBanMessages as b,
  banLogPageSchema,
  hostingMessages as h,
  serverPageMessages as p,
  utcDateTimeText,
} from '@canopy/contract';
import { type BanCast, banCast, banRow, refusedToAllButHolders } from './support/admin-bans.ts';
import { openSocket } from './support/console-socket.ts';
import { addCollaborator, ownerWithServer, signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const logCount = async (api: TestApi, id: string) =>
  Number((await api.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ban_logs WHERE user_id = ?', [id]))?.n);

describeEachDatabase('admin bans', (api) => {
  let c: BanCast;
  before(async () => {
    c = await banCast(api());
  });

  it('ban: only users:manage (or a super admin); refusals change nothing; the ban, its log and activity entry', async () => {
    const a = api();
    const target = await signInRegistered(a);
    const path = `/admin/users/${target.user.id}/ban`;
    const body = { reason: 'Spamming/Flooding', duration: '7d' };
    await refusedToAllButHolders(api(), c, 'POST', path, body, c.usersView);
    assert.equal((await banRow(a, target.user.id))?.is_banned, 0);
    assert.equal(await logCount(a, target.user.id), 0);

    const res = await a.request('POST', path, { body, token: c.manager.sessionToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const expires = a.clock.now + 7 * 86_400_000;
    assert.deepEqual(res.body, { message: b.banned(target.growId, new Date(expires).toISOString()) });
    assert.match(res.body.message, / is banned until \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\.$/);
    const row = await banRow(a, target.user.id);
    assert.equal(row?.is_banned, 1);
    assert.equal(row?.ban_reason, 'Spamming/Flooding');
    assert.equal(row?.banned_by, c.manager.growId);
    assert.equal(Number(row?.ban_expires), expires);
    const logged = await a.ctx.db.get<{ actor_name: string; details: string }>(
      "SELECT actor_name, details FROM activity_logs WHERE action = 'User banned' AND details LIKE ?",
      [`%${target.user.id}%`],
    );
    assert.equal(logged?.actor_name, c.manager.growId);
    assert.equal(
      logged?.details,
      `${target.growId} (${target.user.id}) until ${utcDateTimeText(expires)}: Spamming/Flooding`,
    );

    // The profile says so, with who banned; the next server-side action is refused.
    const profile = await a.request('GET', `/users/${target.user.id}/profile`, { token: target.sessionToken });
    assert.equal(profile.body.profile.isBanned, true);
    assert.deepEqual(profile.body.profile.banInfo, {
      reason: 'Spamming/Flooding',
      bannedBy: c.manager.growId,
      bannedAt: new Date(a.clock.now).toISOString(),
      expires: new Date(expires).toISOString(),
    });
    const feedback = await a.request('POST', '/feedback', {
      token: target.sessionToken,
      body: { type: 'Bug Report', message: 'let me in' },
    });
    assert.equal(feedback.status, 403, 'the next request is refused');

    // A super admin replaces it with a permanent ban: the first log row ends, the new one holds.
    a.clock.now += 1000;
    const perm = await a.request('POST', path, {
      body: { reason: 'Harassment', duration: ' PERM ' },
      token: c.sup.sessionToken,
    });
    assert.equal(perm.status, 200);
    assert.equal(perm.body.message, b.banned(target.growId, null));
    assert.equal((await banRow(a, target.user.id))?.ban_expires, null);
    const logs = banLogPageSchema.parse(
      (await a.request('GET', `/admin/ban-logs?search=${target.user.id}`, { token: c.bansView.sessionToken })).body,
    );
    assert.equal(logs.total, 2);
    assert.deepEqual(
      logs.items.map((l) => [l.reason, l.active, l.expires, l.bannedBy, l.unbannedBy]),
      [
        ['Harassment', true, null, c.sup.growId, null],
        ['Spamming/Flooding', false, new Date(expires).toISOString(), c.manager.growId, c.sup.growId],
      ],
    );
    assert.equal(logs.items[0]?.discordUsername, target.user.username);
    assert.equal(logs.items[0]?.growId, target.growId);
  });

  it('ban: the spec text for a missing reason or duration, the syntax text for a bad duration; nothing changes', async () => {
    const a = api();
    const target = await signInRegistered(a);
    const path = `/admin/users/${target.user.id}/ban`;
    const cases: [unknown, string][] = [
      [undefined, b.reasonAndDurationRequired],
      [{}, b.reasonAndDurationRequired],
      [{ reason: 'x' }, b.reasonAndDurationRequired],
      [{ duration: '30d' }, b.reasonAndDurationRequired],
      [{ reason: '   ', duration: '30d' }, b.reasonAndDurationRequired],
      [{ reason: 'x', duration: '' }, b.reasonAndDurationRequired],
      [{ reason: 'x', duration: '  ' }, b.reasonAndDurationRequired],
      [{ reason: 5, duration: '1d' }, b.reasonAndDurationRequired],
      [{ reason: 'x', duration: '3x' }, adminUserMessages.durationInvalid],
      [{ reason: 'x', duration: '0d' }, adminUserMessages.durationInvalid],
      [{ reason: 'x', duration: 'forever' }, adminUserMessages.durationInvalid],
      [{ reason: 'x', duration: '7 days' }, adminUserMessages.durationInvalid],
    ];
    for (const [body, error] of cases) {
      const res = await a.request('POST', path, { body, token: c.manager.sessionToken });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, error, JSON.stringify(body));
    }
    const long = await a.request('POST', path, {
      body: { reason: 'x'.repeat(201), duration: '1d' },
      token: c.manager.sessionToken,
    });
    assert.equal(long.body.error, b.reasonTooLong);
    assert.equal((await banRow(a, target.user.id))?.is_banned, 0);
    assert.equal(await logCount(a, target.user.id), 0);
  });

  it('ban: admins and super admins cannot be banned, an unknown user is 404', async () => {
    const a = api();
    for (const s of [c.noPerm, c.sup]) {
      const res = await a.request('POST', `/admin/users/${s.user.id}/ban`, {
        body: { reason: 'x', duration: '1d' },
        token: c.sup.sessionToken,
      });
      assert.equal(res.status, 403);
      assert.equal(res.body.error, b.adminCannotBeBanned);
      assert.equal((await banRow(a, s.user.id))?.is_banned, 0);
      assert.equal(await logCount(a, s.user.id), 0);
    }
    const unknown = await a.request('POST', '/admin/users/123/ban', {
      body: { reason: 'x', duration: '1d' },
      token: c.manager.sessionToken,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, b.userNotFound);
  });

  it('a ban reaches the sockets at once, stops the running server and keeps it stopped; unban lifts it', async () => {
    const a = api();
    const name = `bn${a.dialect[0]}${process.pid % 10000}`;
    const owner = await ownerWithServer(a, name);
    const helper = await signInRegistered(a);
    await addCollaborator(a, owner.user.id, helper.user.id, ['server:actions']);
    const start = await a.request('POST', `/users/${owner.user.id}/server/${name}/start`, {
      token: owner.sessionToken,
    });
    assert.equal(start.status, 202);
    await waitForStatus(a, name, 'ONLINE');
    const socket = await openSocket(a, owner.user.id, owner.sessionToken);
    socket.ws.send(JSON.stringify({ type: 'console_subscribe' }));
    await until(() => socket.messages.some((m) => m.type === 'console_history'), 'the console subscription');

    const ban = await a.request('POST', `/admin/users/${owner.user.id}/ban`, {
      body: { reason: 'Exploiting/Cheating', duration: '2w' },
      token: c.manager.sessionToken,
    });
    assert.equal(ban.status, 200);
    await until(
      () => socket.messages.some((m) => m.type === 'account_notice' && m.payload.kind === 'banned'),
      'the ban notice',
    );
    // The console closes at once (not at the subscription's 5 s recheck: the notice came first).
    await until(() => socket.messages.some((m) => m.type === 'error'), 'the console refusal', 3000);
    assert.deepEqual(socket.messages.find((m) => m.type === 'error')?.payload, {
      message: p.bannedConsole,
      code: 'console_denied',
    });

    await waitForStatus(a, name, 'OFFLINE');
    const desired = await a.ctx.db.get<{ desired_state: string }>('SELECT desired_state FROM servers WHERE name = ?', [
      name,
    ]);
    assert.equal(desired?.desired_state, 'stopped');
    const mine = await a.request('POST', `/users/${owner.user.id}/server/${name}/start`, { token: owner.sessionToken });
    assert.equal(mine.status, 403);
    assert.equal(mine.body.error, h.bannedActions);
    const theirs = await a.request('POST', `/users/${helper.user.id}/server/${name}/start`, {
      token: helper.sessionToken,
    });
    assert.equal(theirs.status, 403);
    assert.equal(theirs.body.error, p.ownerBanned, 'a ban of the owner covers the server (ADR 0030)');
    assert.equal(a.ctx.servers.runtime.state((await serverId(a, name)) ?? '').status, 'OFFLINE');

    const unban = await a.request('POST', `/admin/users/${owner.user.id}/unban`, { token: c.sup.sessionToken });
    assert.equal(unban.status, 200);
    assert.deepEqual(unban.body, { message: b.unbanned(owner.growId) });
    await until(
      () => socket.messages.some((m) => m.type === 'account_notice' && m.payload.kind === 'unbanned'),
      'the unban notice',
    );
    assert.equal((await banRow(a, owner.user.id))?.is_banned, 0);
    const logs = banLogPageSchema.parse(
      (await a.request('GET', `/admin/ban-logs?search=${owner.growId}`, { token: c.sup.sessionToken })).body,
    );
    assert.equal(logs.items[0]?.active, false);
    assert.equal(logs.items[0]?.unbannedBy, c.sup.growId);
    const again = await a.request('POST', `/admin/users/${owner.user.id}/unban`, { token: c.sup.sessionToken });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, b.notBanned);
    const restarted = await a.request('POST', `/users/${helper.user.id}/server/${name}/start`, {
      token: helper.sessionToken,
    });
    assert.equal(restarted.status, 202, JSON.stringify(restarted.body));
    await waitForStatus(a, name, 'ONLINE');
    socket.ws.close(1000);
  });

  it('unban: only users:manage; refusals change nothing; unknown user 404', async () => {
    const a = api();
    const target = await signInRegistered(a);
    await a.request('POST', `/admin/users/${target.user.id}/ban`, {
      body: { reason: 'x', duration: '1d' },
      token: c.manager.sessionToken,
    });
    const path = `/admin/users/${target.user.id}/unban`;
    await refusedToAllButHolders(api(), c, 'POST', path, undefined, c.usersView);
    assert.equal((await banRow(a, target.user.id))?.is_banned, 1);
    assert.equal((await a.request('POST', path, { token: c.manager.sessionToken })).status, 200);
    assert.equal((await banRow(a, target.user.id))?.is_banned, 0);
    const unknown = await a.request('POST', '/admin/users/123/unban', { token: c.manager.sessionToken });
    assert.equal(unknown.status, 404);
  });

  it('ban logs: bans:view, newest first, paged by 10', async () => {
    const a = api();
    await refusedToAllButHolders(api(), c, 'GET', '/admin/ban-logs', undefined, null);
    assert.equal((await a.request('GET', '/admin/ban-logs', { token: c.usersView.sessionToken })).status, 403);
    const targets = await Promise.all(Array.from({ length: 11 }, () => signIn(a)));
    for (const t of targets) {
      a.clock.now += 1000;
      await a.request('POST', `/admin/users/${t.user.id}/ban`, {
        body: { reason: 'paging', duration: '1h' },
        token: c.manager.sessionToken,
      });
    }
    const first = banLogPageSchema.parse(
      (await a.request('GET', '/admin/ban-logs', { token: c.bansView.sessionToken })).body,
    );
    assert.equal(first.pageSize, 10);
    assert.equal(first.items[0]?.active, true);
    assert.equal(first.items.length, 10);
    assert.ok(first.total >= 11);
    assert.deepEqual(
      first.items.slice(0, 11).map((l) => l.discordId),
      targets
        .slice(1)
        .reverse()
        .map((t) => t.user.id),
    );
    const second = banLogPageSchema.parse(
      (await a.request('GET', '/admin/ban-logs?page=2', { token: c.sup.sessionToken })).body,
    );
    assert.equal(second.items[0]?.discordId, targets[0]?.user.id);
    assert.equal(second.items[0]?.growId, null, 'an unregistered user has no GrowID');
    // Past its end a ban no longer holds: the tab stops offering Unban.
    const newest = targets.at(-1)?.user.id ?? '';
    await sql(a, 'UPDATE ban_logs SET expires = ? WHERE user_id = ?', [a.clock.now - 1, newest]);
    const later = banLogPageSchema.parse(
      (await a.request('GET', '/admin/ban-logs', { token: c.sup.sessionToken })).body,
    );
    assert.equal(later.items[0]?.active, false);
    const bad = await a.request('GET', '/admin/ban-logs?page=0', { token: c.sup.sessionToken });
    assert.equal(bad.status, 400);
  });
});

const serverId = async (api: TestApi, name: string) =>
  (await api.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]))?.id;
