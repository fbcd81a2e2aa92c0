import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  backupMessages as b,
  hostingMessages as h,
  serverPageMessages as p,
  SCHEDULES_MAX,
  scheduleListSchema,
  scheduleResponseSchema,
  scheduleMessages as sm,
} from '@canopy/contract';
import { runDueSchedules, SCHEDULE_LATE_MAX_MS } from '../src/schedules/run-schedules.ts';
import { consoleOf } from './support/console-socket.ts';
import { addCollaborator, ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';
import { until } from './support/until.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const call = (api: TestApi, s: Session, method: string, path: string, body?: unknown) =>
  api.request(method, `/users/${s.user.id}/server/schedules${path}`, { token: s.sessionToken, body });
const daily = { action: 'restart', time: '04:30', weekday: null, timeZone: 'Europe/Berlin' };

describeEachDatabase('schedules', (api) => {
  let owner: Session;
  let server = '';
  let serverId = '';
  const rows = async () =>
    Number(
      (await api().ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM schedules WHERE server_id = ?', [serverId]))?.n,
    );
  const entries = async (action: string) =>
    api().ctx.db.all<{ details: string }>(
      'SELECT details FROM activity_logs WHERE action = ? AND details LIKE ? ORDER BY timestamp',
      [action, `${server}:%`],
    );

  before(async () => {
    server = `sc${api().dialect[0]}${process.pid % 1000}`;
    owner = await ownerWithServer(api(), server);
    const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]);
    serverId = row?.id ?? '';
  });

  it('lets the owner create, list, edit, disable and delete a schedule, each logged', async () => {
    const created = await call(api(), owner, 'POST', '', { ...daily, timeZone: 'europe/berlin' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { schedule } = scheduleResponseSchema.parse(created.body);
    assert.equal(created.body.message, sm.created);
    assert.deepEqual(
      { time: schedule.time, weekday: schedule.weekday, timeZone: schedule.timeZone, enabled: schedule.enabled },
      { time: '04:30', weekday: null, timeZone: 'Europe/Berlin', enabled: true },
    );
    assert.ok(schedule.nextRunAt && Date.parse(schedule.nextRunAt) > api().clock.now);

    const list = scheduleListSchema.parse((await call(api(), owner, 'GET', '')).body);
    assert.deepEqual(
      list.schedules.map((s) => s.id),
      [schedule.id],
    );
    assert.equal(list.max, SCHEDULES_MAX);

    const weekly = { action: 'broadcast', time: '18:00', weekday: 5, timeZone: 'Asia/Jakarta', message: 'Hi all' };
    const edited = await call(api(), owner, 'PUT', `/${schedule.id}`, { ...weekly, enabled: false });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.schedule.nextRunAt, null, 'a disabled schedule has no next run');
    assert.equal(edited.body.schedule.message, 'Hi all');
    const enabled = await call(api(), owner, 'PUT', `/${schedule.id}`, weekly);
    assert.equal(new Date(enabled.body.schedule.nextRunAt).getUTCDay(), 5, '18:00 Friday in Jakarta is 11:00 UTC');

    assert.equal((await call(api(), owner, 'DELETE', `/${schedule.id}`)).status, 200);
    assert.equal((await call(api(), owner, 'DELETE', `/${schedule.id}`)).body.error, sm.notFound);
    assert.equal((await call(api(), owner, 'PUT', `/${schedule.id}`, daily)).status, 404);
    assert.equal(await rows(), 0);
    assert.equal((await entries('Schedule created')).length, 1);
    assert.equal((await entries('Schedule updated')).length, 2);
    assert.match(
      (await entries('Schedule deleted'))[0]?.details ?? '',
      /every Friday broadcast at 18:00 Asia\/Jakarta/,
    );
  });

  it('refuses bad input with a clear error and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ ...daily, time: '4:30' }, sm.badTime],
      [{ ...daily, time: '24:00' }, sm.badTime],
      [{ ...daily, weekday: 7 }, sm.badWeekday],
      [{ ...daily, timeZone: 'Mars/Olympus' }, sm.badTimeZone],
      [{ ...daily, action: 'stop' }, sm.badAction],
      [{ ...daily, action: 'broadcast' }, sm.messageRequired],
      [{ ...daily, action: 'broadcast', message: 'x'.repeat(201) }, sm.messageTooLong],
      [{ ...daily, action: 'broadcast', message: 'hi\nstop' }, sm.messageOneLine],
    ];
    for (const [body, error] of cases) {
      const res = await call(api(), owner, 'POST', '', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(
        JSON.stringify(res.body),
        new RegExp(error.slice(0, 20).replace(/[()]/g, '.')),
        JSON.stringify(body),
      );
    }
    assert.equal((await call(api(), owner, 'POST', '', { ...daily, extra: 1 })).status, 400);
    assert.equal(await rows(), 0);
  });

  it(`keeps at most ${SCHEDULES_MAX} schedules per server`, async () => {
    for (let i = 0; i < SCHEDULES_MAX; i++)
      assert.equal((await call(api(), owner, 'POST', '', { ...daily, time: `0${i}:00` })).status, 201);
    const refused = await call(api(), owner, 'POST', '', daily);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, sm.tooMany);
    assert.equal(await rows(), SCHEDULES_MAX);
    await api().ctx.db.run('DELETE FROM schedules WHERE server_id = ?', [serverId]);
  });

  it('allows a collaborator with server:actions, refuses one without it and strangers, changing nothing', async () => {
    const allowed = await signInRegistered(api());
    const denied = await signInRegistered(api());
    const stranger = await signInRegistered(api());
    await addCollaborator(api(), owner.user.id, allowed.user.id, ['server:actions']);
    await addCollaborator(api(), owner.user.id, denied.user.id, ['console:use', 'backups:manage']);
    const made = await call(api(), allowed, 'POST', '', daily);
    assert.equal(made.status, 201);
    const id = made.body.schedule.id;
    assert.equal((await call(api(), allowed, 'GET', '')).body.schedules.length, 1);

    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['POST', '', daily],
      ['PUT', `/${id}`, { ...daily, enabled: false }],
      ['DELETE', `/${id}`, undefined],
    ] as const) {
      const res = await call(api(), denied, method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error, h.noActionPermission);
      assert.equal((await call(api(), stranger, method, path, body)).body.error, p.noServer);
      // Another user's id in the path is refused whoever the caller is.
      const other = await api().request(method, `/users/${owner.user.id}/server/schedules${path}`, {
        token: allowed.sessionToken,
        body,
      });
      assert.equal(other.status, 403);
    }
    const still = scheduleListSchema.parse((await call(api(), owner, 'GET', '')).body).schedules;
    assert.deepEqual(
      still.map((s) => [s.id, s.enabled]),
      [[id, true]],
    );
    assert.equal((await call(api(), allowed, 'DELETE', `/${id}`)).status, 200);
  });

  it('runs a due schedule once, records its outcome and moves it to its next run', async () => {
    const made = await call(api(), owner, 'POST', '', { ...daily, action: 'broadcast', message: 'Restarting soon' });
    const id = made.body.schedule.id;
    const due = api().clock.now - 1000;
    await api().ctx.db.run('UPDATE schedules SET next_run_at = ? WHERE id = ?', [due, id]);
    // The server never started: a broadcast to nobody is skipped, and says so.
    await runDueSchedules(api().ctx);
    await runDueSchedules(api().ctx);
    const ran = await entries('Schedule ran');
    assert.equal(ran.length, 1);
    assert.match(ran[0]?.details ?? '', /daily broadcast at 04:30 Europe\/Berlin: skipped: the server is not online/);
    const [schedule] = scheduleListSchema.parse((await call(api(), owner, 'GET', '')).body).schedules;
    assert.equal(schedule?.lastOutcome, 'skipped: the server is not online');
    assert.ok(schedule?.nextRunAt && Date.parse(schedule.nextRunAt) > api().clock.now);
    assert.ok(schedule?.lastRunAt);
    await call(api(), owner, 'DELETE', `/${id}`);
  });

  it('skips a run missed by more than an hour, and reports a backup that could not be taken', async () => {
    const late = (await call(api(), owner, 'POST', '', daily)).body.schedule.id;
    const backup = (await call(api(), owner, 'POST', '', { ...daily, action: 'backup' })).body.schedule.id;
    const now = api().clock.now;
    await api().ctx.db.run('UPDATE schedules SET next_run_at = ? WHERE id = ?', [now - SCHEDULE_LATE_MAX_MS - 1, late]);
    await api().ctx.db.run('UPDATE schedules SET next_run_at = ? WHERE id = ?', [now, backup]);
    await runDueSchedules(api().ctx);
    const outcomes = new Map(
      (await api().ctx.db.all<{ id: string; last_outcome: string }>('SELECT id, last_outcome FROM schedules')).map(
        (r) => [r.id, r.last_outcome],
      ),
    );
    assert.equal(outcomes.get(late), 'skipped: missed while the panel was down');
    // The server never ran, so it has no database: taken through the files-only engine, the backup is refused.
    assert.equal(outcomes.get(backup), `failed: ${b.noDatabase}`);
    assert.equal((await entries('Schedule failed')).length, 1);
    await api().ctx.db.run('DELETE FROM schedules WHERE server_id = ?', [serverId]);
  });

  it('on a running server: a broadcast reaches the players, a restart restarts it, a backup replaces the last one', async () => {
    const make = async (body: object) => (await call(api(), owner, 'POST', '', { ...daily, ...body })).body.schedule.id;
    const runNow = async (id: string) => {
      await api().ctx.db.run('UPDATE schedules SET next_run_at = ? WHERE id = ?', [api().clock.now, id]);
      await runDueSchedules(api().ctx);
      return (await api().ctx.db.get<{ last_outcome: string }>('SELECT last_outcome FROM schedules WHERE id = ?', [id]))
        ?.last_outcome;
    };
    const start = await api().request('POST', `/users/${owner.user.id}/server/${server}/start`, {
      token: owner.sessionToken,
    });
    assert.equal(start.status, 202);
    await waitForStatus(api(), server, 'ONLINE');
    const console = await consoleOf(api(), owner.user.id, owner.sessionToken);
    try {
      assert.equal(
        await runNow(await make({ action: 'broadcast', message: 'Event at the START world' })),
        'message sent',
      );
      await until(() => console.lines().some((l) => /\[SERVER\] Event at the START world/.test(l)), 'the broadcast');
    } finally {
      console.ws.close();
    }

    const backup = await make({ action: 'backup' });
    assert.equal(await runNow(backup), 'backup taken (online)');
    const first = await api().ctx.db.get<{ created_at: string }>('SELECT created_at FROM backups WHERE owner_id = ?', [
      owner.user.id,
    ]);
    api().clock.now += 60_000;
    assert.equal(await runNow(backup), 'backup taken (online)', 'the account keeps one backup: the next replaces it');
    const second = await api().ctx.db.get<{ created_at: string }>('SELECT created_at FROM backups WHERE owner_id = ?', [
      owner.user.id,
    ]);
    assert.ok(first && second && Number(second.created_at) > Number(first.created_at));

    assert.equal(await runNow(await make({ action: 'restart' })), 'restart started');
    assert.equal((await entries('Schedule failed')).length, 1, 'only the backup of the server that never ran failed');
    await waitForStatus(api(), server, 'ONLINE');
  });
});
