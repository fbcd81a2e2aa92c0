import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  adminAuditMessages as a,
  adminFeedbackPageSchema,
  adminLogsPageSchema,
  banLogPageSchema,
  defaultSettings,
  messages,
} from '@canopy/contract';
import { accessCallers } from './support/admin-servers.ts';
import { signInAdmin } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

// Issue 24, item 6: the admin audit tabs are searched and filtered on the server, and the Activity Logs export
// as CSV with the same filters.

const DAY = 86_400_000;
/** A day far from the clock, so the entries below are the only ones in their date range. */
const DAY0 = Date.UTC(2031, 0, 10);

async function log(
  api: TestApi,
  id: string,
  at: number,
  action: string,
  actorType: string,
  actor: string,
  details: string,
) {
  await sql(
    api,
    'INSERT INTO activity_logs (id, timestamp, action, actor_type, actor_name, details) VALUES (?, ?, ?, ?, ?, ?)',
    [id, at, action, actorType, actor, details],
  );
}

/** The CSV answer of the export, as text, with its status and headers. */
async function exportCsv(api: TestApi, token: string | undefined, query: string) {
  const res = await fetch(`${api.url}/admin/logs/export${query}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describeEachDatabase('admin audit filters and the activity log export', (api) => {
  let token: string;
  const get = (path: string, t: string | undefined = token) => api().request('GET', path, { token: t });
  const actions = (body: { items: { action: string }[] }) => body.items.map((l) => l.action);

  before(async () => {
    token = (await signInAdmin(api(), ['logs:view', 'bans:view', 'feedback:view'])).sessionToken;
    await log(api(), 'au-1', DAY0 + 1000, 'Server deleted', 'Admin', 'alice', 'Deleted server "Alpha"');
    await log(api(), 'au-2', DAY0 + 2000, 'Shop disabled', 'Admin', 'bob', 'disableShop: false → true');
    await log(
      api(),
      'au-3',
      DAY0 + DAY + 1000,
      'Server crashed',
      'System',
      'System',
      JSON.stringify({ server: 'Beta' }),
    );
    await log(api(), 'au-4', DAY0 + 2 * DAY, 'Server created', 'User', 'carol', '=HYPERLINK("http://x"),"quoted"');
    await log(api(), 'au-5', DAY0 + 2 * DAY + 5, 'Code redeemed', 'User', '100%_sure', 'line one\nline two');
  });

  it('filters the Activity Logs by text, action, actor type and date range, newest first with totals', async () => {
    const range = `from=2031-01-10&to=2031-01-12`;
    const all = await get(`/admin/logs?${range}`);
    assert.equal(all.status, 200);
    adminLogsPageSchema.parse(all.body);
    assert.deepEqual(actions(all.body), [
      'Code redeemed',
      'Server created',
      'Server crashed',
      'Shop disabled',
      'Server deleted',
    ]);
    assert.equal(all.body.total, 5);

    const byText = await get(`/admin/logs?${range}&search=ALPHA`);
    assert.deepEqual(actions(byText.body), ['Server deleted'], 'search reads the details, whatever the case');
    assert.deepEqual(actions((await get(`/admin/logs?${range}&search=bob`)).body), ['Shop disabled'], 'and the actor');
    assert.deepEqual(actions((await get(`/admin/logs?${range}&search=beta`)).body), ['Server crashed'], 'JSON details');
    // LIKE's wildcards are searched as text: '%' and '_' match only themselves.
    assert.deepEqual(actions((await get(`/admin/logs?${range}&search=${encodeURIComponent('0%_')}`)).body), [
      'Code redeemed',
    ]);
    assert.equal((await get(`/admin/logs?${range}&search=${encodeURIComponent('%')}`)).body.total, 1);

    const byAction = await get(`/admin/logs?${range}&action=server`);
    assert.deepEqual(actions(byAction.body), ['Server created', 'Server crashed', 'Server deleted']);
    const byActor = await get(`/admin/logs?${range}&actorType=Admin`);
    assert.deepEqual(actions(byActor.body), ['Shop disabled', 'Server deleted']);
    assert.equal(byActor.body.total, 2);
    const oneDay = await get('/admin/logs?from=2031-01-11&to=2031-01-11');
    assert.deepEqual(actions(oneDay.body), ['Server crashed'], 'a bare date is its whole day (UTC)');
    const instant = await get(`/admin/logs?from=${new Date(DAY0 + 1500).toISOString()}&to=2031-01-10`);
    assert.deepEqual(actions(instant.body), ['Shop disabled'], 'a date and time bounds to the millisecond');
    const both = await get(`/admin/logs?${range}&action=server&actorType=User&search=carol`);
    assert.deepEqual(actions(both.body), ['Server created'], 'filters add up');
    const page2 = await get(`/admin/logs?${range}&page=2`);
    assert.deepEqual([page2.body.items.length, page2.body.total, page2.body.page], [0, 5, 2], 'paging is kept');
  });

  it('refuses a bad query with a 400 naming the problem', async () => {
    for (const [query, text] of [
      ['actorType=Robot', a.badActorType],
      ['from=yesterday', a.badDate('from')],
      ['to=2031-13-45', a.badDate('to')],
      ['from=2031-01-12&to=2031-01-10', a.fromAfterTo],
      [`search=${'x'.repeat(101)}`, 'search must be at most 100 characters.'],
      [`action=${'x'.repeat(101)}`, 'action must be at most 100 characters.'],
      ['page=0', 'page must be 1 or more.'],
    ] as const) {
      const res = await get(`/admin/logs?${query}`);
      assert.equal(res.status, 400, query);
      assert.ok(String(res.body.error).includes(text), `${query}: ${res.body.error}`);
      const csv = await exportCsv(api(), token, `?${query}`);
      if (!query.startsWith('page')) assert.equal(csv.status, 400, `export ${query}`);
    }
    const fb = await get('/admin/feedback?status=Done');
    assert.equal(fb.status, 400);
    assert.ok(String(fb.body.error).includes(a.badFeedbackStatus), fb.body.error);
    assert.ok(String((await get('/admin/feedback?type=Rant')).body.error).includes(a.badFeedbackType));
    assert.equal((await get('/admin/ban-logs?from=2031-02-01&to=2031-01-01')).status, 400);
  });

  it('exports the filtered log as CSV with RFC 4180 quoting and no formula a spreadsheet would run', async () => {
    const res = await exportCsv(api(), token, '?from=2031-01-10&to=2031-01-12');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(
      res.headers.get('content-disposition') ?? '',
      /^attachment; filename="activity-logs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.text.split('\r\n');
    assert.equal(lines[0], 'Timestamp,Action,Actor Type,Actor Name,Details');
    // A line break stays inside its quoted cell: only records end with CRLF.
    assert.equal(
      lines[1],
      `${new Date(DAY0 + 2 * DAY + 5).toISOString()},Code redeemed,User,100%_sure,"line one\nline two"`,
    );
    // The cell starting with '=' gets an apostrophe; its quotes are doubled inside a quoted cell.
    assert.equal(
      lines[2],
      `${new Date(DAY0 + 2 * DAY).toISOString()},Server created,User,carol,"'=HYPERLINK(""http://x""),""quoted"""`,
    );
    assert.ok(lines.includes(`${new Date(DAY0 + DAY + 1000).toISOString()},Server crashed,System,System,server: Beta`));
    assert.equal(res.text.endsWith('\r\n'), true);
    assert.equal(lines.length, 1 + 5 + 1, 'header, five entries, the empty tail');

    await log(api(), 'au-6', DAY0 + 3 * DAY, '+cmd', 'Admin', '@evil', '-2+3');
    const injected = await exportCsv(api(), token, '?from=2031-01-13&to=2031-01-13');
    assert.equal(injected.text.split('\r\n')[1], `${new Date(DAY0 + 3 * DAY).toISOString()},'+cmd,Admin,'@evil,'-2+3`);
    const filtered = await exportCsv(api(), token, '?from=2031-01-10&to=2031-01-12&actorType=Admin&search=alpha');
    assert.equal(filtered.text.split('\r\n').length, 3, 'the export keeps the filters: header, one row, tail');
  });

  it('lets only logs:view export', async () => {
    const c = await accessCallers(api(), 'logs:view');
    assert.equal((await exportCsv(api(), c.signedOut, '')).status, 401);
    const plain = await exportCsv(api(), c.plainUser, '');
    assert.equal(JSON.parse(plain.text).error, messages.adminOnly);
    const without = await exportCsv(api(), c.adminWithout, '');
    assert.deepEqual([without.status, JSON.parse(without.text).error], [403, messages.missingPermission]);
    assert.equal((await exportCsv(api(), c.withPermission, '')).status, 200);
    assert.equal((await exportCsv(api(), c.superAdmin, '')).status, 200);
  });

  it('finds a maintenance switch in the Activity Logs with what changed', async () => {
    const sup = (await signInAdmin(api(), 'super')).sessionToken;
    api().clock.now += 60_000;
    const saved = await api().request('POST', '/admin/settings', {
      token: sup,
      body: { ...defaultSettings, maintenance: true },
    });
    assert.equal(saved.status, 200);
    const found = await get('/admin/logs?action=maintenance&actorType=Admin');
    assert.equal(found.body.items[0]?.action, 'Maintenance mode turned on');
    assert.deepEqual(found.body.items[0]?.details, { text: 'maintenance: false → true' });
    await api().request('POST', '/admin/settings', { token: sup, body: defaultSettings });
  });

  it('filters Ban Logs by reason and date, and Feedback by type, status and text', async () => {
    for (const [id, name, reason, at] of [
      ['bl-1', 'spammer1', 'Spamming the chat', DAY0],
      ['bl-2', 'cheater2', 'Speed hack', DAY0 + DAY],
    ] as const) {
      await sql(api(), 'INSERT INTO users (id, username, created_at) VALUES (?, ?, ?)', [`u-${id}`, name, DAY0]);
      await sql(
        api(),
        `INSERT INTO ban_logs (id, user_id, discord_username, grow_id, banned_by, reason, banned_at, expires)
         VALUES (?, ?, ?, NULL, 'admin', ?, ?, NULL)`,
        [id, `u-${id}`, name, reason, at],
      );
    }
    const byReason = await get('/admin/ban-logs?search=speed');
    banLogPageSchema.parse(byReason.body);
    assert.deepEqual(
      byReason.body.items.map((b: { discordUsername: string }) => b.discordUsername),
      ['cheater2'],
    );
    const byDate = await get('/admin/ban-logs?from=2031-01-10&to=2031-01-10');
    assert.deepEqual(
      byDate.body.items.map((b: { discordUsername: string }) => b.discordUsername),
      ['spammer1'],
    );

    for (const [id, type, status, message, at] of [
      ['fb-1', 'Bug Report', 'New', 'The console freezes', DAY0],
      ['fb-2', 'Suggestion', 'Resolved', 'Add dark mode', DAY0 + 1],
      ['fb-3', 'Bug Report', 'Resolved', 'Backups fail at 100%', DAY0 + 2],
    ] as const)
      await sql(
        api(),
        `INSERT INTO feedback (id, user_id, type, message, submitted_by_username, submitted_by_grow_id, status, created_at)
         VALUES (?, NULL, ?, ?, 'sender', NULL, ?, ?)`,
        [id, type, message, status, at],
      );
    const ids = (body: { items: { id: string }[] }) => body.items.map((f) => f.id).filter((id) => id.startsWith('fb-'));
    const bugs = await get('/admin/feedback?type=Bug%20Report');
    adminFeedbackPageSchema.parse(bugs.body);
    assert.deepEqual(ids(bugs.body), ['fb-3', 'fb-1']);
    assert.deepEqual(ids((await get('/admin/feedback?status=Resolved')).body), ['fb-3', 'fb-2']);
    const both = await get('/admin/feedback?type=Bug%20Report&status=Resolved&search=100%25');
    assert.deepEqual([ids(both.body), both.body.total], [['fb-3'], 1]);
  });
});
