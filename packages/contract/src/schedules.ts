import { z } from 'zod';

/** Most schedules one server keeps (a database invariant: schedules.slot, migration 20). */
export const SCHEDULES_MAX = 10;
/** Longest broadcast message: sent as `say <message>`, well inside a console command's bound. */
export const SCHEDULE_MESSAGE_MAX = 200;

/** What a schedule does when it runs. */
export const scheduleActions = ['restart', 'broadcast', 'backup'] as const;
export type ScheduleAction = (typeof scheduleActions)[number];

/** Texts of the Schedules page and its api (our words: the spec has no schedules). */
export const scheduleMessages = {
  title: 'Schedules',
  badTime: 'time must be HH:MM (24-hour), e.g. 04:30.',
  badWeekday: 'weekday must be 0 (Sunday) to 6 (Saturday), or null for every day.',
  badTimeZone: 'timeZone must be an IANA time zone, e.g. Europe/Berlin.',
  badAction: 'action must be one of: restart, broadcast, backup.',
  messageRequired: 'A broadcast needs a message.',
  messageTooLong: `The message must be at most ${SCHEDULE_MESSAGE_MAX} characters.`,
  messageOneLine: 'The message must be one line of printable text.',
  tooMany: `A server can have at most ${SCHEDULES_MAX} schedules. Delete one first.`,
  notFound: 'Schedule not found.',
  created: 'Schedule created.',
  updated: 'Schedule saved.',
  deleted: 'Schedule deleted.',
} as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Whether `zone` is a time zone this runtime knows (Intl throws a RangeError for an unknown one). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}

/** A schedule as the owner writes it: a daily (weekday null) or weekly time in a time zone, and an action. */
export const scheduleInputSchema = z
  .object({
    action: z.enum(scheduleActions, { error: scheduleMessages.badAction }),
    time: z.string({ error: scheduleMessages.badTime }).regex(HHMM, { error: scheduleMessages.badTime }),
    weekday: z
      .number({ error: scheduleMessages.badWeekday })
      .int({ error: scheduleMessages.badWeekday })
      .min(0, { error: scheduleMessages.badWeekday })
      .max(6, { error: scheduleMessages.badWeekday })
      .nullable(),
    timeZone: z
      .string({ error: scheduleMessages.badTimeZone })
      .refine(isTimeZone, { error: scheduleMessages.badTimeZone }),
    message: z
      .string()
      .trim()
      .max(SCHEDULE_MESSAGE_MAX, { error: scheduleMessages.messageTooLong })
      // Printable text only: a newline would end the console command and start another one.
      .regex(/^[^\p{Cc}\p{Cf}]*$/u, { error: scheduleMessages.messageOneLine })
      .nullable()
      .optional(),
    enabled: z.boolean().default(true),
  })
  .strict()
  .superRefine((v, c) => {
    if (v.action === 'broadcast' && !v.message)
      c.addIssue({ code: 'custom', path: ['message'], message: scheduleMessages.messageRequired });
  });
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

/** A stored schedule; times are ISO strings, nextRunAt null while disabled. */
export const scheduleSchema = z.object({
  id: z.string(),
  action: z.enum(scheduleActions),
  time: z.string(),
  weekday: z.number().int().nullable(),
  timeZone: z.string(),
  message: z.string().nullable(),
  enabled: z.boolean(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastOutcome: z.string().nullable(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** GET answer: the server's schedules, oldest first. */
export const scheduleListSchema = z.object({ schedules: z.array(scheduleSchema), max: z.number().int() });
export type ScheduleList = z.infer<typeof scheduleListSchema>;

/** A write's answer: the message and the schedule as stored. */
export const scheduleResponseSchema = z.object({ message: z.string(), schedule: scheduleSchema });
