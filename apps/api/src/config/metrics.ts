import { z } from 'zod';

// Prometheus metrics (ADR 0045): where GET /metrics is served and what it asks for. Off unless a token or a port
// is set: then /metrics on the panel's port is a 404 like any unknown route.

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The environment variables of /metrics, spread into config/env-schema.ts. */
export const metricsEnv = {
  // A scraper's bearer token; compared in constant time. Long enough that guessing it is hopeless.
  CANOPY_METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in an HTTP header)')
      .optional(),
  ),
  // A listener of its own that serves only /metrics (0: a free port, for tests).
  CANOPY_METRICS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  CANOPY_METRICS_HOST: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
};

/** Where and how /metrics is served; undefined in Config when metrics are off. */
export interface MetricsConfig {
  /** Required as `Authorization: Bearer <token>` wherever /metrics is served, when set. */
  token?: string;
  /** A separate listener for /metrics alone (the panel's port then has none); unset: the panel's port. */
  listener?: { port: number; host: string };
}

/** The parsed variables the checks read. */
interface MetricsEnv {
  PORT: number;
  CANOPY_GATEWAY_TLS_PORT: number;
  CANOPY_METRICS_TOKEN?: string | undefined;
  CANOPY_METRICS_PORT?: number | undefined;
  CANOPY_METRICS_HOST?: string | undefined;
}

/** What is wrong across the metrics variables, by variable. */
export function metricsIssues(env: MetricsEnv): { path: string[]; message: string }[] {
  const port = env.CANOPY_METRICS_PORT;
  if (port === undefined) {
    if (env.CANOPY_METRICS_HOST)
      return [{ path: ['CANOPY_METRICS_HOST'], message: 'needs CANOPY_METRICS_PORT (the listener it binds)' }];
    return [];
  }
  if (port !== 0 && (port === env.PORT || port === env.CANOPY_GATEWAY_TLS_PORT))
    return [{ path: ['CANOPY_METRICS_PORT'], message: 'must differ from PORT and CANOPY_GATEWAY_TLS_PORT' }];
  return [];
}

/** /metrics as configured; `host` is the api's own HOST, the listener's default. Undefined: metrics are off. */
export function metricsOf(env: MetricsEnv, host: string): MetricsConfig | undefined {
  const port = env.CANOPY_METRICS_PORT;
  if (!env.CANOPY_METRICS_TOKEN && port === undefined) return undefined;
  return {
    token: env.CANOPY_METRICS_TOKEN,
    listener: port === undefined ? undefined : { port, host: env.CANOPY_METRICS_HOST ?? host },
  };
}
