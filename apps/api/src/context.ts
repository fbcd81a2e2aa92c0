import type { FastifyBaseLogger } from 'fastify';
import type { SessionSigner } from './auth/tokens.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { EventBus } from './events/bus.ts';
import type { GatewayHandle } from './gateway/gateway.ts';
import type { Readiness } from './lifecycle/readiness.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Leadership } from './scheduler/leader.ts';
import type { ServerRegistry } from './servers/registry.ts';
import type { WorkerPool } from './workers/worker-pool.ts';

/** What every service needs, made once at start and passed down (no module-level singletons). */
export interface AppContext {
  config: Config;
  db: Db;
  signer: SessionSigner;
  log: FastifyBaseLogger;
  /** Milliseconds since the epoch; tests replace it to move time. */
  now: () => number;
  bus: EventBus;
  /** Hosted servers and the runtime that runs them. */
  servers: ServerRegistry;
  /** Base URL of the API that speaks Discord's /users/@me. */
  discordApiUrl: string;
  /** Prometheus metrics (ADR 0045); recorded always, exported only when CANOPY_METRICS_TOKEN or _PORT is set. */
  metrics: Metrics;
  /** Worker threads for bodies too costly to parse and validate on the event loop (ADR 0034). */
  workers: WorkerPool;
  /** The login gateway once started (startBackground), unless CANOPY_GATEWAY=off. */
  gateway?: GatewayHandle;
  /** Whether this replica runs the scheduler (startBackground); always the leader on SQLite. */
  leader?: Leadership;
  /** Whether this replica should get traffic (GET /readyz): started, not stopping, database and runtime ready. */
  readiness: Readiness;
}
