import { Counter, collectDefaultMetrics, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { listenForMetrics, metricsGate } from './expose.ts';

/** What the login gateway counts: sign-ins by kind and refusals by their stable code (login.service.ts). */
export interface GatewayMetrics {
  /** `kind`: a password sign-in, a new GrowID, or a saved sign-in refreshed. */
  login(kind: 'password' | 'new_growid' | 'saved'): void;
  /** `reason`: the refusal's code (a fixed set: unknown_server, wrong_password, rate_limited, …). */
  refused(reason: string): void;
}

/**
 * The gateway's counters in `registry`: the api's when the gateway runs inside it, the standalone gateway's own
 * otherwise (gateway/main.ts), under the same names either way.
 */
export function gatewayMetrics(registry: Registry): GatewayMetrics {
  const logins = new Counter({
    name: 'canopy_gateway_logins_total',
    help: 'Players signed in through the login gateway, by kind.',
    labelNames: ['kind'],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'canopy_gateway_refusals_total',
    help: 'Sign-ins the login gateway refused, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const kind of ['password', 'new_growid', 'saved']) logins.inc({ kind }, 0);
  return {
    login: (kind) => logins.inc({ kind }),
    refused: (reason) => refusals.inc({ reason }),
  };
}

/**
 * The standalone gateway's metrics (gateway/main.ts): its counters and the process's own, served on their own
 * listener when CANOPY_METRICS_PORT is set (it has no panel port to serve them on). Returns the counters and the
 * listener's stop.
 */
export async function standaloneGatewayMetrics(
  config: Pick<Config, 'metrics' | 'http'>,
  warn: (msg: string) => void,
): Promise<{ metrics: GatewayMetrics; port?: number; stop(): Promise<void> }> {
  const registry = new Registry();
  const metrics = gatewayMetrics(registry);
  const listener = config.metrics?.listener;
  if (!listener) {
    if (config.metrics)
      warn('CANOPY_METRICS_TOKEN alone serves no metrics from a standalone gateway: set CANOPY_METRICS_PORT');
    return { metrics, stop: async () => {} };
  }
  collectDefaultMetrics({ register: registry });
  const served = await listenForMetrics(registry, listener, config.http, metricsGate(config.metrics?.token));
  return { metrics, port: served.port, stop: served.close };
}
