import { z } from 'zod';

/**
 * The probes' paths (ADR 0044): liveness answers as long as the process serves HTTP; readiness only while this
 * replica should get traffic. They are api answers, never web-app pages, whatever the request's Accept says.
 */
export const HEALTH_PATHS = { alive: '/healthz', ready: '/readyz' } as const;

/** True for the path of a probe (the web app's page serving and per-request logging leave them alone). */
export function isHealthPath(path: string): boolean {
  return path === HEALTH_PATHS.alive || path === HEALTH_PATHS.ready;
}

/** GET /healthz: the process is alive (it touches nothing). */
export const healthzResponseSchema = z.object({ status: z.literal('ok') });

/** GET /readyz with 200: the database answers at the latest schema and the runtime driver has booted. */
export const readyzReadySchema = z.object({
  status: z.literal('ready'),
  /** Whether this replica runs the platform-wide jobs now (the scheduler's leader; always on SQLite). */
  leader: z.boolean(),
});

/** GET /readyz with 503: why this replica should get no traffic now, in words an operator acts on. */
export const readyzUnavailableSchema = z.object({
  status: z.literal('unavailable'),
  reason: z.string(),
});

/** GET /readyz's body, 200 or 503. */
export const readyzResponseSchema = z.union([readyzReadySchema, readyzUnavailableSchema]);
export type ReadyzResponse = z.infer<typeof readyzResponseSchema>;
