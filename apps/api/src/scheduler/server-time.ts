import { activityRepo } from '../activity/activity.repo.ts';
import { warnExpiry } from '../alerts/expiry-alerts.ts';
import { alertDeps, notifyServer } from '../alerts/notify.ts';
import { backupsRepo } from '../backups/backups.repo.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { rollUpHistory } from '../history/rollup.ts';
import { rateCounterRepo } from '../http/rate-counter.repo.ts';
import { runDueSchedules } from '../schedules/run-schedules.ts';
import { serverDataBytes } from '../servers/server-usage.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { removeServer } from '../servers/servers.service.ts';
import { graceEndsAt } from '../users/profile.ts';
import { liveSocketsRepo } from '../ws/live-sockets.repo.ts';
import { LIVE_SOCKETS_STALE_MS } from '../ws/live-sockets.ts';
import { writeStorageFigures } from './storage-figures.repo.ts';

interface Due {
  server_id: string;
  name: string;
  owner_id: string;
  server_expires_at: number;
  desired_state: string;
}

/** Owner and collaborators, read before the server (and with it their access) may be deleted. */
const audienceOf = async (ctx: AppContext, d: Due) => [
  d.owner_id,
  ...(await collaboratorsRepo.audience(ctx.db, d.server_id)),
];

const system = (ctx: AppContext, action: string, details: string) =>
  activityRepo.add(ctx.db, { action, actorType: 'System', actorName: 'System', details }, ctx.now());

/**
 * One pass of the server-time rules at `ctx.now()`: a server whose time ran out is stopped and its grace
 * period begins; when the grace period ends the server and its data are deleted for good.
 */
export async function enforceServerTime(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  const due = await ctx.db.all<Due>(
    `SELECT s.id AS server_id, s.name, s.owner_id, u.server_expires_at, s.desired_state
     FROM servers s JOIN users u ON u.id = s.owner_id
     WHERE u.server_permanent = 0 AND u.server_expires_at IS NOT NULL AND u.server_expires_at <= ?`,
    [now],
  );
  for (const d of due) {
    const runtime = ctx.servers.runtime;
    if (graceEndsAt(Number(d.server_expires_at)) <= now) {
      if (runtime.isBusy(d.server_id)) continue; // next pass
      const audience = await audienceOf(ctx, d);
      // Someone else's delete (the owner, an admin) may have won the race: then it is theirs to announce and log.
      if (!(await removeServer(ctx, d.server_id, 'expiry'))) continue;
      // Open dashboards learn it now, not on reload; a status push alone would not reach collaborators.
      ctx.bus.emit('notice', { name: d.name, kind: 'deleted', audience });
      await system(
        ctx,
        'Server deleted (grace period over)',
        `${d.name}: the grace period ended; server and data deleted`,
      );
      continue;
    }
    const status = runtime.state(d.server_id).status;
    if (d.desired_state === 'running' || status !== 'OFFLINE') {
      await serversRepo.setDesiredState(ctx.db, d.server_id, 'stopped');
      if (status !== 'OFFLINE' && !runtime.isBusy(d.server_id)) await runtime.stop(d.server_id).catch(() => {});
      await system(ctx, 'Server stopped (server time expired)', `${d.name}: server time ran out; grace period started`);
      const text = `${d.name}'s server time ran out: it is stopped, and deleted with its data when the grace period ends unless it is renewed.`;
      await notifyServer(alertDeps(ctx), d.server_id, 'grace_started', { serverName: d.name, text });
      ctx.bus.emit('notice', { name: d.name, kind: 'expired', audience: await audienceOf(ctx, d) });
    }
  }
}

/**
 * Returns to Free every Paid plan whose end has passed (docs/decisions/0019-paid-plan.md). The profile and the
 * storage checks already stop counting the plan at its end (profile.ts paidPlanActive); this makes it final.
 */
export async function endPaidPlans(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  const due = await ctx.db.all<{ id: string; username: string; grow_id: string | null }>(
    "SELECT id, username, grow_id FROM users WHERE account_type = 'Paid' AND paid_until IS NOT NULL AND paid_until <= ?",
    [now],
  );
  for (const u of due) {
    // The condition again: an admin may have extended the plan since the select.
    const ended = await ctx.db.run(
      "UPDATE users SET account_type = 'Free', paid_until = NULL WHERE id = ? AND account_type = 'Paid' AND paid_until <= ?",
      [u.id, now],
    );
    if (ended.changes === 1)
      await system(ctx, 'Paid plan ended', `${u.grow_id ?? u.username} (${u.id}): the Paid plan ended; now Free`);
  }
}

/** Servers measured at once by the storage pass (each a call to a running engine, or a recorded figure). */
const STORAGE_MEASURE_CONCURRENCY = 4;

/**
 * Keeps each account's storage figure current: what its server's files take and its activity entries, plus its
 * backup (an account whose server is gone still stores its backup). A running engine is asked; an offline server
 * counts by the figure recorded when it was last measured, so a pass starts no engine but for a server never
 * measured (server-usage.ts, ADR 0041). Measured first, written in batches.
 */
export async function refreshStorage(ctx: AppContext): Promise<void> {
  const backups = new Map((await backupsRepo.all(ctx.db)).map((b) => [b.owner_id, Number(b.bytes)]));
  const figures = new Map<string, number>();
  const servers = await serversRepo.all(ctx.db);
  // What each server's activity entries store in the platform database counts too (storage-quota.ts).
  const activity = await serversRepo.allActivityBytes(ctx.db);
  const recorded = await serversRepo.allDataBytes(ctx.db);
  let next = 0;
  const measure = async () => {
    for (let s = servers[next++]; s; s = servers[next++]) {
      // A server that cannot be measured now (starting, its engine not answering) keeps its owner's last figure.
      const data = await serverDataBytes(ctx, s, recorded.get(s.id) ?? null).catch(() => null);
      if (data !== null) figures.set(s.owner_id, data + (activity.get(s.id) ?? 0) + (backups.get(s.owner_id) ?? 0));
    }
  };
  await Promise.all(Array.from({ length: STORAGE_MEASURE_CONCURRENCY }, measure));
  for (const [ownerId, bytes] of backups) if (!figures.has(ownerId)) figures.set(ownerId, bytes);
  await writeStorageFigures(
    ctx.db,
    [...figures].map(([ownerId, bytes]) => ({ ownerId, bytes })),
  );
}

/** Deletes rate-limit windows that are over and the socket rows of dead replicas (PostgreSQL only, ADR 0038). */
async function sweepSharedLimits(ctx: AppContext) {
  if (ctx.db.dialect !== 'postgres') return;
  const now = Date.now();
  await rateCounterRepo.sweep(ctx.db, now);
  await liveSocketsRepo.sweep(ctx.db, now - LIVE_SOCKETS_STALE_MS);
}

/** Runs one job, counting its run, outcome and duration (canopy_scheduler_*); a failure still fails the pass. */
async function timed(ctx: AppContext, job: string, run: (ctx: AppContext) => Promise<void>) {
  const started = performance.now();
  let ok = false;
  try {
    await run(ctx);
    ok = true;
  } finally {
    ctx.metrics.schedulerRun(job, ok, (performance.now() - started) / 1000);
  }
}

/** Runs the periodic jobs now and then every `intervalMs`; returns a function that stops them. */
export function startScheduler(ctx: AppContext, intervalMs: number): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running
      .then(() => timed(ctx, 'server_time', enforceServerTime))
      .then(() => timed(ctx, 'alert_expiry', warnExpiry))
      .then(() => timed(ctx, 'paid_plans', endPaidPlans))
      .then(() => timed(ctx, 'schedules', runDueSchedules))
      .then(() => timed(ctx, 'storage', refreshStorage))
      .then(() => timed(ctx, 'shared_limits', sweepSharedLimits))
      .then(() => timed(ctx, 'history', async (c) => void (await rollUpHistory(c.db, c.now()))))
      .catch((error) => ctx.log.error({ err: error }, 'scheduled job failed'));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
