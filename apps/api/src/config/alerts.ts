import { z } from 'zod';

// Discord alerts (ADR 0049): how often the leader looks at the queue, how fast it may post to one webhook, and the
// one extra base (besides Discord's own hosts) a webhook URL may start with.

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The environment variables of Discord alerts, spread into config/env-schema.ts. */
export const alertsEnv = {
  CANOPY_ALERT_INTERVAL_MS: z.coerce.number().int().min(10).max(60000).default(2000),
  // Discord allows about 30 messages a minute per webhook; staying under it avoids 429s and bans.
  CANOPY_ALERT_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(20),
  // Another accepted webhook base, e.g. http://127.0.0.1:9000/api/webhooks/ (tests, a relay). Unset: Discord only.
  CANOPY_ALERT_WEBHOOK_BASE: z.preprocess(emptyAsUndefined, z.url().optional()),
};

/** Discord alerts' settings. */
export interface AlertsConfig {
  intervalMs: number;
  ratePerMinute: number;
  extraBase?: string;
}

/** The alerts' settings from the parsed environment. */
export function alertsOf(e: {
  CANOPY_ALERT_INTERVAL_MS: number;
  CANOPY_ALERT_RATE_PER_MINUTE: number;
  CANOPY_ALERT_WEBHOOK_BASE?: string | undefined;
}): AlertsConfig {
  return {
    intervalMs: e.CANOPY_ALERT_INTERVAL_MS,
    ratePerMinute: e.CANOPY_ALERT_RATE_PER_MINUTE,
    extraBase: e.CANOPY_ALERT_WEBHOOK_BASE,
  };
}
