import type { FastifyBaseLogger } from 'fastify';
import { loadControlKey } from '../auth/secret.ts';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/db.ts';
import type { GatewayMetrics } from '../metrics/gateway-metrics.ts';
import { ControlClient } from '../runtime/control-client.ts';
import type { GameAddress } from '../runtime/types.ts';
import { parseGameAddress } from '../servers/game-address.ts';
import { toSpec } from '../servers/hosting.ts';
import type { ServerRegistry } from '../servers/registry.ts';
import type { ServerRow } from '../servers/servers.repo.ts';
import { gatewayRepo } from './gateway.repo.ts';

/** A hosted server as the gateway reads it: its row, with what the panel's runtime recorded of it (ADR 0039). */
export interface TenantRow extends ServerRow {
  live_status: string;
  control_url: string | null;
  /** host:port where players reach it while ONLINE, when the runtime decides that (kubernetes); else NULL. */
  game_address: string | null;
}

/**
 * What the gateway asks about hosted servers beyond their rows: which are ONLINE, and the engine's control API and
 * game port of one. In the panel's process the runtime answers (live); a gateway run apart reads what the runtime
 * recorded in the database.
 */
export interface GatewayTenants {
  /** The names of the servers that are ONLINE (the login page's list). */
  onlineNames(): Promise<string[]>;
  /** The game port and control secret of a server (its game token's port and server key). */
  spec(row: TenantRow): { gamePort: number; secret: string };
  /** The control API of a server that is ONLINE, else null. */
  control(row: TenantRow): ControlClient | null;
  /**
   * Where players reach an ONLINE server when its runtime decides that (a Kubernetes node and the port Agones gave
   * it); null: the gateway's public address and the server's game port (the local runtime).
   */
  address(row: TenantRow): GameAddress | null;
}

/**
 * What the gateway needs to run: the api's configuration, database, logger and clock, its view of the tenants, and
 * where it counts sign-ins and refusals (the api's metrics, or the standalone gateway's own).
 */
export interface GatewayContext extends Pick<AppContext, 'config' | 'db' | 'now'> {
  log: FastifyBaseLogger;
  tenants: GatewayTenants;
  metrics: GatewayMetrics;
}

/** The tenants as the panel's own runtime sees them (the gateway inside `npm start`). */
export function registryTenants(servers: ServerRegistry): GatewayTenants {
  return {
    onlineNames: async () =>
      servers
        .feed()
        .filter((s) => s.status === 'ONLINE')
        .map((s) => s.name),
    spec: (row) => servers.spec(row),
    control: (row) => (servers.runtime.state(row.id).status === 'ONLINE' ? servers.runtime.control(row.id) : null),
    address: (row) => servers.runtime.state(row.id).address ?? null,
  };
}

/** The gateway's context inside the panel's process (clock read through the api's, which tests replace). */
export function embeddedGatewayContext(ctx: AppContext): GatewayContext {
  return {
    config: ctx.config,
    db: ctx.db,
    log: ctx.log,
    now: () => ctx.now(),
    tenants: registryTenants(ctx.servers),
    metrics: ctx.metrics.gateway,
  };
}

/**
 * The tenants as the panel's runtime recorded them in the database (servers.live_status, control_url): a gateway
 * run as its own process. Control secrets derive from the panel's control key (CANOPY_CONTROL_KEY, else the data
 * directory's).
 */
export function recordedTenants(db: Db, config: Pick<Config, 'controlKey' | 'dataDir'>): GatewayTenants {
  const controlKey = loadControlKey(config.controlKey, config.dataDir);
  return {
    onlineNames: () => gatewayRepo.onlineNames(db),
    spec: (row) => toSpec(row, controlKey),
    control: (row) => {
      if (row.live_status !== 'ONLINE' || !row.control_url) return null;
      const url = new URL(row.control_url);
      return new ControlClient(url.hostname, Number(url.port), toSpec(row, controlKey).secret);
    },
    address: (row) => (row.live_status === 'ONLINE' ? parseGameAddress(row.game_address) : null),
  };
}
