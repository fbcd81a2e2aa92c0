import pino from 'pino';
import { openDatabaseOrExit, orExit, stopOnSignals } from '../boot.ts';
import { loadConfig } from '../config.ts';
import { standaloneGatewayMetrics } from '../metrics/gateway-metrics.ts';
import { startGateway } from './gateway.ts';
import { gatewayStartLine } from './start-line.ts';
import { recordedTenants } from './tenants.ts';

// `npm run gateway`: the login gateway as its own process (ADR 0039), beside a panel started with
// CANOPY_GATEWAY=off. Same configuration and database as the panel; no HTTP api, web app, scheduler or runtime:
// which servers are ONLINE and where their engines answer is read from what the panel's runtime records.

process.umask(0o077);

const config = orExit(loadConfig);
const db = await openDatabaseOrExit(config);
const log = pino({ level: config.logLevel });
// Its own /metrics on CANOPY_METRICS_PORT (ADR 0045), listening before the gateway counts anything.
const metrics = await standaloneGatewayMetrics(config, (msg) => log.warn(msg)).catch(async (error: Error) => {
  console.error(error.message);
  await db.close();
  process.exit(1);
});
const gateway = await startGateway({
  config,
  db,
  log,
  now: Date.now,
  tenants: recordedTenants(db, config),
  metrics: metrics.metrics,
}).catch(async (error: Error) => {
  console.error(`The login gateway did not start: ${error.message}`);
  await metrics.stop();
  await db.close();
  process.exit(1);
});
const metricsAt = metrics.port === undefined ? '' : `, metrics on port ${metrics.port}`;
console.log(`${gatewayStartLine(config, gateway)} (database: ${db.dialect}${metricsAt})`);

// Ordered shutdown: the HTTPS thread, the certificates, the ENet front child, the metrics, then the database.
stopOnSignals(async () => {
  await gateway.stop();
  await metrics.stop();
  await db.close();
});
