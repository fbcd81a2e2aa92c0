import { EventEmitter } from 'node:events';
import type { ServerAccess } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import { ACTIVITY_DETAILS_MAX, entryBytes } from '../activity/server-activity.ts';
import { backupsRepo } from '../backups/backups.repo.ts';
import { createBackup, deleteBackup } from '../backups/backups.service.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type ServerRow, serversRepo } from '../servers/servers.repo.ts';
import { powerAction } from '../servers/servers.service.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { isBanActive } from '../users/profile.ts';
import { usersRepo } from '../users/users.repo.ts';
import { nextRunAfter } from './next-run.ts';
import { type ScheduleRow, schedulesRepo } from './schedules.repo.ts';
import { describeSchedule } from './schedules.service.ts';

/**
 * A run found later than this after its time (the panel was down, or the leader was handing over) is skipped, not
 * run: a restart or a broadcast hours late surprises players more than a missed one (ADR 0052).
 */
export const SCHEDULE_LATE_MAX_MS = 60 * 60_000;

/** What one run did: `ok` false for a failure; a skip is ok (nothing was wrong, there was nothing to do). */
export interface ScheduleRunEvent {
  serverId: string;
  ownerId: string;
  serverName: string;
  action: ScheduleRow['action'];
  outcome: string;
  ok: boolean;
}

/**
 * Emits 'run' (a ScheduleRunEvent) after each run, on the leader that ran it: the hook for owner alerts (issue 24
 * item 1), which may listen here without this module knowing about them.
 */
export const scheduleRuns = new EventEmitter<{ run: [ScheduleRunEvent] }>();

/**
 * One pass over the schedules due at `ctx.now()`. Each due row is claimed first (moved to its next run by a
 * conditional UPDATE) and acted on only by the caller whose claim changed it, so a run happens once even when two
 * schedulers overlap (a leader handover). Runs go one at a time: a backup may take minutes, and the next pass
 * waits for it rather than piling runs up.
 */
export async function runDueSchedules(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  for (const row of await schedulesRepo.due(ctx.db, now)) {
    const due = Number(row.next_run_at);
    const next = nextRunAfter(now, {
      minute: Number(row.at_minute),
      weekday: row.weekday === null ? null : Number(row.weekday),
      timeZone: row.time_zone,
    });
    if (!(await schedulesRepo.claim(ctx.db, row.id, due, next, now))) continue;
    const server = await serversRepo.findById(ctx.db, row.server_id);
    if (!server) continue; // deleted since the select: its schedules went with it
    const late = now - due > SCHEDULE_LATE_MAX_MS;
    const result = late
      ? { ok: true, outcome: 'skipped: missed while the panel was down' }
      : await act(ctx, row, server).catch((error: Error) => ({
          ok: false,
          outcome: `failed: ${error instanceof AppError ? error.message : 'internal error'}`,
        }));
    if (!result.ok) ctx.log.warn({ server: server.name, schedule: row.id, outcome: result.outcome }, 'schedule failed');
    await record(ctx, row, server, result).catch((error) =>
      ctx.log.error({ err: error, server: server.name }, 'the outcome of a schedule could not be recorded'),
    );
  }
}

/** Runs the schedule's action for the server's owner, with the rules the owner's own request would meet. */
async function act(ctx: AppContext, row: ScheduleRow, server: ServerRow): Promise<{ ok: boolean; outcome: string }> {
  const owner = await usersRepo.findById(ctx.db, server.owner_id);
  if (!owner) return { ok: true, outcome: 'skipped: the owner is gone' };
  const settings = await settingsRepo.load(ctx.db);
  if (settings.maintenance) return { ok: true, outcome: 'skipped: maintenance' };
  if (isBanActive(owner, ctx.now())) return { ok: true, outcome: 'skipped: the owner is banned' };
  const access: ServerAccess = { user: owner, server, isOwner: true, isAdmin: false, settings };
  const runtime = ctx.servers.runtime;
  const status = runtime.state(server.id).status;
  if (row.action === 'backup') {
    // One backup per account: a scheduled one replaces it, once the server can be snapshotted at all.
    if (runtime.isBusy(server.id) || (status !== 'ONLINE' && status !== 'OFFLINE'))
      return { ok: false, outcome: 'failed: the server was busy' };
    if (await backupsRepo.find(ctx.db, server.owner_id)) await deleteBackup(ctx, access);
    await createBackup(ctx, access);
    return { ok: true, outcome: `backup taken (${status === 'ONLINE' ? 'online' : 'offline'})` };
  }
  // A stopped server stays stopped: its owner stopped it, and a schedule should not undo that (ADR 0052).
  if (status !== 'ONLINE') return { ok: true, outcome: 'skipped: the server is not online' };
  if (row.action === 'restart') {
    await powerAction(ctx, access, server.name, 'restart');
    return { ok: true, outcome: 'restart started' };
  }
  await runtime.sendCommand(server.id, `say ${row.message ?? ''}`);
  return { ok: true, outcome: 'message sent' };
}

/** The run's outcome on the schedule row and in the server's activity, counted like the owner's own entries. */
async function record(ctx: AppContext, row: ScheduleRow, server: ServerRow, result: { ok: boolean; outcome: string }) {
  await schedulesRepo.setOutcome(ctx.db, row.id, result.outcome);
  const what = describeSchedule({
    action: row.action,
    atMinute: Number(row.at_minute),
    weekday: row.weekday === null ? null : Number(row.weekday),
    timeZone: row.time_zone,
  });
  const text = `${server.name}: ${what}: ${result.outcome}`;
  const entry = {
    action: result.ok ? 'Schedule ran' : 'Schedule failed',
    actorType: 'System' as const,
    actorName: 'Scheduler',
    details: text.length > ACTIVITY_DETAILS_MAX ? `${text.slice(0, ACTIVITY_DETAILS_MAX - 1)}…` : text,
  };
  await ctx.db.transaction(async (tx) => {
    await activityRepo.add(tx, entry, ctx.now());
    await serversRepo.addActivityBytes(tx, server.id, entryBytes(entry.action, entry.actorName, entry.details));
  });
  scheduleRuns.emit('run', {
    serverId: server.id,
    ownerId: server.owner_id,
    serverName: server.name,
    action: row.action,
    outcome: result.outcome,
    ok: result.ok,
  });
}
