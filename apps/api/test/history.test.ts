import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  adminHistoryResponseSchema,
  hostingMessages as h,
  serverPageMessages as p,
  serverHistoryResponseSchema,
} from '@canopy/contract';
import { HOUR, MINUTE, maxRowsPerServer, QUARTER, spanOf } from '../src/history/downsample.ts';
import { serverHistory } from '../src/history/history.service.ts';
import { rollUpHistory } from '../src/history/rollup.ts';
import { type SampleSource, sampleHistory } from '../src/history/sampler.ts';
import { addCollaborator, ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const history = (api: TestApi, s: Session | undefined, query = '') =>
  api.request('GET', `/users/${s?.user.id ?? 'nobody'}/server/history${query}`, { token: s?.sessionToken });

/** A runtime stand-in: these servers ONLINE with these numbers. */
const source = (
  servers: Record<string, { players: number; cpu: number | null; memory: number | null }>,
): SampleSource => ({
  online: () => Object.entries(servers).map(([id, s]) => ({ id, players: s.players })),
  usage: (id) => ({ cpuPercent: servers[id]?.cpu ?? null, memoryBytes: servers[id]?.memory ?? null }),
});

const rowsOf = async (api: TestApi, serverId: string) =>
  Number(
    (await api.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM server_samples WHERE server_id = ?', [serverId]))
      ?.n,
  );

describeEachDatabase('history graphs', (api) => {
  let owner: Session;
  let serverId = '';
  // A fixed origin on a whole hour, so that every span below is known.
  let t0 = 0;
  // The clock when the sessions were made: HTTP calls are made at it (a session would have expired a week later).
  let start = 0;

  before(async () => {
    owner = await ownerWithServer(api(), `hi${api().dialect[0]}${process.pid % 1000}`);
    serverId = (await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]))
      ?.id as string;
    start = api().clock.now;
    t0 = spanOf(start, HOUR) + HOUR;
  });

  it('decides access: the owner and a collaborator with server:actions; no one else; a bad range is a 400', async () => {
    const allowed = await signInRegistered(api());
    const denied = await signInRegistered(api());
    const stranger = await signInRegistered(api());
    await addCollaborator(api(), owner.user.id, allowed.user.id, ['server:actions']);
    await addCollaborator(api(), owner.user.id, denied.user.id, ['console:use', 'worlds:manage']);
    for (const s of [owner, allowed]) {
      const res = await history(api(), s, '?range=day');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(serverHistoryResponseSchema.parse(res.body).stepMs, QUARTER);
    }
    const refused = await history(api(), denied);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, h.noActionPermission);
    assert.equal((await history(api(), stranger)).body.error, p.noServer);
    assert.equal((await history(api(), undefined)).status, 401);
    assert.equal(
      (await api().request('GET', `/users/${stranger.user.id}/server/history`, { token: owner.sessionToken })).status,
      403,
    );
    const bad = await history(api(), owner, '?range=year');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /range/);
  });

  it('keeps 1-minute points for the hour and rolls them into 15-minute spans for the day (peak players, mean CPU)', async () => {
    const numbers = { players: 0, cpu: 0 as number | null, memory: 100 as number | null };
    const s = source({ [serverId]: numbers });
    // 20 minutes of samples from t0: players climb to 19, CPU 0..19 (the first quarter averages 7), memory peaks at 114.
    for (let m = 0; m < 20; m++) {
      Object.assign(numbers, { players: m, cpu: m, memory: m === 14 ? 114 : 100 });
      await sampleHistory(api().ctx, s, t0 + m * MINUTE + 1000);
      await rollUpHistory(api().ctx.db, t0 + m * MINUTE + 2000);
    }
    api().clock.now = t0 + 20 * MINUTE;
    const hour = await serverHistory(api().ctx, serverId, 'hour');
    assert.equal(hour.points.length, 20);
    assert.deepEqual(hour.points[3], { at: t0 + 3 * MINUTE, players: 3, cpuPercent: 3, memoryBytes: 100 });

    const stored = await api().ctx.db.all<{
      at: number;
      samples: number;
      players: number;
      cpu: number;
      memory: number;
    }>('SELECT at, samples, players, cpu, memory FROM server_samples WHERE server_id = ? AND step_ms = ?', [
      serverId,
      QUARTER,
    ]);
    assert.deepEqual(
      stored.map((r) => ({ ...r, at: Number(r.at), cpu: Number(r.cpu) })),
      [{ at: t0, samples: 15, players: 14, cpu: 7, memory: 114 }],
      'the first quarter is rolled up once it ended and its grace passed',
    );
    const day = await serverHistory(api().ctx, serverId, 'day');
    // The stored quarter, then the current one rolled up from its 1-minute points on the fly.
    assert.deepEqual(
      day.points.slice(-2).map((q) => [q.at - t0, q.players, q.cpuPercent]),
      [
        [0, 14, 7],
        [QUARTER, 19, 17],
      ],
    );
  });

  it('holds at most maxRowsPerServer rows per server through eight days, pruned and rolled up to hours', async () => {
    const s = source({ [serverId]: { players: 3, cpu: 12.5, memory: 64 << 20 } });
    // A sample every 20 minutes and a rollup every hour keep the test short; every resolution still fills, is
    // rolled up (a pass catches up on every span still complete) and ages out.
    for (let at = t0 + HOUR; at < t0 + 8 * 24 * HOUR; at += 20 * MINUTE) {
      await sampleHistory(api().ctx, s, at);
      if ((at - t0) % HOUR !== 0) continue;
      await rollUpHistory(api().ctx.db, at + 1000);
      if ((at - t0) % (12 * HOUR) === 0) assert.ok((await rowsOf(api(), serverId)) <= maxRowsPerServer);
    }
    const rows = await rowsOf(api(), serverId);
    assert.ok(rows <= maxRowsPerServer, `${rows} rows`);
    assert.ok(rows > 150, `${rows} rows: the week's hours are kept`);
    api().clock.now = t0 + 8 * 24 * HOUR;
    const week = await serverHistory(api().ctx, serverId, 'week');
    assert.equal(week.stepMs, HOUR);
    assert.ok(week.points.length >= 7 * 24 - 1 && week.points.length <= 7 * 24, `${week.points.length} points`);
    assert.ok(week.points.every((q) => q.players === 3 && q.cpuPercent === 12.5 && q.memoryBytes === 64 << 20));
    assert.ok(week.points.every((q) => q.at >= week.from && q.at < week.to));
  });

  it('gives the admin Dashboard signups, credits sold and the sampled gauges per span, behind dashboard:view', async () => {
    api().clock.now = start;
    const minute = spanOf(start, MINUTE) - 5 * MINUTE;
    await api().ctx.db.run('UPDATE users SET created_at = ? WHERE id = ?', [minute + 10, owner.user.id]);
    await api().ctx.db.run(
      `INSERT INTO credit_ledger (id, user_id, delta, balance, reason, external_ref, actor, created_at)
       VALUES ('hist-pay', ?, 250, 250, 'payment', 'stripe:hist', 'stripe', ?), ('hist-gift', ?, 40, 290, 'admin', NULL, 'x', ?)`,
      [owner.user.id, minute + 20, owner.user.id, minute + 30],
    );
    await sampleHistory(api().ctx, source({ [serverId]: { players: 7, cpu: null, memory: null } }), minute);
    await rollUpHistory(api().ctx.db, minute + MINUTE + 1);

    const admin = await signInRegistered(api());
    await api().ctx.db.run('UPDATE users SET is_admin = 1, admin_permissions = \'["dashboard:view"]\' WHERE id = ?', [
      admin.user.id,
    ]);
    const res = await api().request('GET', '/admin/history?range=hour', { token: admin.sessionToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = adminHistoryResponseSchema.parse(res.body);
    assert.equal(body.points.length, 60);
    const point = body.points.find((q) => q.at === minute);
    assert.deepEqual(
      { ...point, storageBytes: typeof point?.storageBytes },
      { at: minute, signups: 1, creditsSold: 250, serversOnline: 1, playersOnline: 7, storageBytes: 'number' },
    );
    assert.equal(body.points.find((q) => q.at === minute - MINUTE)?.serversOnline, null, 'not sampled: no gauge');
    assert.equal((await api().request('GET', '/admin/history', { token: owner.sessionToken })).status, 403);
    const bad = await api().request('GET', '/admin/history?range=1', { token: admin.sessionToken });
    assert.equal(bad.status, 400);
  });
});
