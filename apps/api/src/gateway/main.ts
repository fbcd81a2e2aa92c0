import pino from 'pino';
import { type Config, loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { startGateway } from './gateway.ts';
import { gatewayStartLine } from './start-line.ts';
import { recordedTenants } from './tenants.ts';

// `npm run gateway`: the login gateway as its own process (ADR 0039), beside a panel started with
// CANOPY_GATEWAY=off. Same configuration and database as the panel; no HTTP api, web app, scheduler or runtime:
// which servers are ONLINE and where their engines answer is read from what the panel's runtime records.

process.umask(0o077);

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const db = await openDatabase(config).catch((error: Error) => {
  console.error(`Cannot open the database: ${error.message}`);
  process.exit(1);
});
const log = pino({ level: config.logLevel });
const gateway = await startGateway({
  config,
  db,
  log,
  now: Date.now,
  tenants: recordedTenants(db, config.dataDir),
}).catch(async (error: Error) => {
  console.error(`The login gateway did not start: ${error.message}`);
  await db.close();
  process.exit(1);
});
console.log(`${gatewayStartLine(config, gateway)} (database: ${db.dialect})`);

// Ordered shutdown: the HTTPS thread, the certificates, the ENet front child, then the database.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await gateway.stop();
    await db.close();
    process.exit(0);
  });
