import { z } from 'zod';

/** The spans a history chart shows; each has its own resolution (see `historySteps`). */
export const historyRangeSchema = z.enum(['hour', 'day', 'week']);
export type HistoryRange = z.infer<typeof historyRangeSchema>;

/** How long each range looks back, in ms. */
export const historyRangeMs: Record<HistoryRange, number> = {
  hour: 60 * 60_000,
  day: 24 * 60 * 60_000,
  week: 7 * 24 * 60 * 60_000,
};

/** The width of one point of each range, in ms: 1-minute points for the hour, 15-minute for the day, 1-hour for the week. */
export const historySteps: Record<HistoryRange, number> = {
  hour: 60_000,
  day: 15 * 60_000,
  week: 60 * 60_000,
};

/** The query of both history routes: `?range=hour|day|week` (default hour). */
export const historyQuerySchema = z.object({ range: historyRangeSchema.default('hour') });

/**
 * One point of a server's history: the peak player count in the point's span, the engine's CPU (percent of one
 * core, averaged) and memory (bytes, peak). CPU and memory are null where the runtime cannot measure them.
 */
export const serverHistoryPointSchema = z.object({
  at: z.number().int(),
  players: z.number().int().min(0),
  cpuPercent: z.number().min(0).nullable(),
  memoryBytes: z.number().min(0).nullable(),
});
export type ServerHistoryPoint = z.infer<typeof serverHistoryPointSchema>;

/** GET /users/:id/server/history: the points of the range, oldest first; spans the server was offline have none. */
export const serverHistoryResponseSchema = z.object({
  range: historyRangeSchema,
  stepMs: z.number().int(),
  from: z.number().int(),
  to: z.number().int(),
  points: z.array(serverHistoryPointSchema),
});
export type ServerHistoryResponse = z.infer<typeof serverHistoryResponseSchema>;

/**
 * One point of the platform's history: signups and credits sold (Stripe payments) counted in the point's span,
 * and the sampled gauges (peak servers online, players online, storage used), null where nothing was sampled.
 */
export const adminHistoryPointSchema = z.object({
  at: z.number().int(),
  signups: z.number().int().min(0),
  creditsSold: z.number().int().min(0),
  serversOnline: z.number().int().min(0).nullable(),
  playersOnline: z.number().int().min(0).nullable(),
  storageBytes: z.number().min(0).nullable(),
});
export type AdminHistoryPoint = z.infer<typeof adminHistoryPointSchema>;

/** GET /admin/history: one point per span of the range, oldest first. */
export const adminHistoryResponseSchema = z.object({
  range: historyRangeSchema,
  stepMs: z.number().int(),
  from: z.number().int(),
  to: z.number().int(),
  points: z.array(adminHistoryPointSchema),
});
export type AdminHistoryResponse = z.infer<typeof adminHistoryResponseSchema>;

/** Texts of the history charts. */
export const historyMessages = {
  title: 'History',
  ranges: { hour: 'Last hour', day: 'Last day', week: 'Last week' } satisfies Record<HistoryRange, string>,
  players: 'Players online',
  cpu: 'CPU (% of one core)',
  memory: 'Memory (MB)',
  empty: 'No samples yet: points are taken every minute while the server is online.',
  signups: 'Signups',
  creditsSold: 'Credits sold',
  serversOnline: 'Servers online',
  playersOnline: 'Players online',
  storage: 'Storage used (GB)',
  loadFailed: 'Could not load the history.',
} as const;
