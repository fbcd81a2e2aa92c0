import { randomUUID } from 'node:crypto';
import {
  SCHEDULES_MAX,
  type Schedule,
  type ScheduleInput,
  type ScheduleList,
  scheduleMessages as sm,
} from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/db.ts';
import { conflict, notFound } from '../errors.ts';
import { minuteOf, nextRunAfter, timeOf } from './next-run.ts';
import { type ScheduleFields, type ScheduleRow, schedulesRepo } from './schedules.repo.ts';

const iso = (t: number | string | null) => (t === null ? null : new Date(Number(t)).toISOString());

/** A row as the contract shows it. */
export const scheduleOf = (r: ScheduleRow): Schedule => ({
  id: r.id,
  action: r.action,
  time: timeOf(Number(r.at_minute)),
  weekday: r.weekday === null ? null : Number(r.weekday),
  timeZone: r.time_zone,
  message: r.message,
  enabled: Number(r.enabled) === 1,
  nextRunAt: iso(r.next_run_at),
  lastRunAt: iso(r.last_run_at),
  lastOutcome: r.last_outcome,
});

/** The stored fields of an input; the next run counts from now, so an edit never runs a time already past. */
function fieldsOf(ctx: AppContext, input: ScheduleInput): ScheduleFields {
  const atMinute = minuteOf(input.time);
  // Resolved by Intl to its canonical name (e.g. "asia/jakarta" → "Asia/Jakarta"), so the list shows one spelling.
  const timeZone = new Intl.DateTimeFormat('en-US', { timeZone: input.timeZone }).resolvedOptions().timeZone;
  const when = { minute: atMinute, weekday: input.weekday, timeZone };
  return {
    action: input.action,
    // Only a broadcast says something; a message sent with another action is not kept.
    message: input.action === 'broadcast' ? (input.message ?? null) : null,
    atMinute,
    weekday: input.weekday,
    timeZone,
    enabled: input.enabled,
    nextRunAt: input.enabled ? nextRunAfter(ctx.now(), when) : null,
  };
}

/** A short human description for the activity log: "daily restart at 04:30 Europe/Berlin". */
export function describeSchedule(f: { action: string; atMinute: number; weekday: number | null; timeZone: string }) {
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const when = f.weekday === null ? 'daily' : `every ${days[f.weekday]}`;
  return `${when} ${f.action} at ${timeOf(f.atMinute)} ${f.timeZone}`;
}

/** GET: the server's schedules. */
export async function listSchedules(ctx: AppContext, { server }: ServerAccess): Promise<ScheduleList> {
  const rows = await schedulesRepo.list(ctx.db, server.id);
  return { schedules: rows.map(scheduleOf), max: SCHEDULES_MAX };
}

/**
 * POST: a new schedule in the server's lowest free slot. The slot's unique index is the bound: a create racing
 * another one for the same slot is refused (409) rather than making an eleventh schedule.
 */
export async function createSchedule(ctx: AppContext, access: ServerAccess, input: ScheduleInput) {
  const { server } = access;
  const fields = fieldsOf(ctx, input);
  const used = new Set(await schedulesRepo.slots(ctx.db, server.id));
  const slot = Array.from({ length: SCHEDULES_MAX }, (_, i) => i).find((i) => !used.has(i));
  if (slot === undefined) throw conflict(sm.tooMany, 'too_many_schedules');
  const id = randomUUID();
  try {
    await schedulesRepo.insert(ctx.db, { id, serverId: server.id, slot, now: ctx.now(), ...fields });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(sm.tooMany, 'too_many_schedules');
    throw error;
  }
  await logServerAction(ctx, access, 'Schedule created', describeSchedule(fields));
  return { message: sm.created, schedule: await stored(ctx, server.id, id) };
}

/** PUT: replaces a schedule's fields (enabling or disabling it too). */
export async function updateSchedule(ctx: AppContext, access: ServerAccess, id: string, input: ScheduleInput) {
  const { server } = access;
  const fields = fieldsOf(ctx, input);
  const changed = await schedulesRepo.update(ctx.db, server.id, id, fields);
  if (changed.changes !== 1) throw notFound(sm.notFound, 'no_schedule');
  const state = fields.enabled ? '' : ' (disabled)';
  await logServerAction(ctx, access, 'Schedule updated', `${describeSchedule(fields)}${state}`);
  return { message: sm.updated, schedule: await stored(ctx, server.id, id) };
}

/** DELETE: removes a schedule of the server. */
export async function deleteSchedule(ctx: AppContext, access: ServerAccess, id: string) {
  const { server } = access;
  const row = await schedulesRepo.find(ctx.db, server.id, id);
  if (!row || (await schedulesRepo.delete(ctx.db, server.id, id)).changes !== 1)
    throw notFound(sm.notFound, 'no_schedule');
  const f = { action: row.action, atMinute: Number(row.at_minute), weekday: row.weekday, timeZone: row.time_zone };
  await logServerAction(ctx, access, 'Schedule deleted', describeSchedule(f));
  return { message: sm.deleted };
}

async function stored(ctx: AppContext, serverId: string, id: string) {
  const row = await schedulesRepo.find(ctx.db, serverId, id);
  if (!row) throw notFound(sm.notFound, 'no_schedule');
  return scheduleOf(row);
}
