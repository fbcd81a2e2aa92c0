import { buildApp, startBackground } from './app.ts';
import { openDatabaseOrExit, orExit, stopOnSignals } from './boot.ts';
import { readPanelTls } from './config/panel-tls.ts';
import { loadConfig } from './config.ts';
import { gatewayStartLine } from './gateway/start-line.ts';
import { gracefulShutdown } from './lifecycle/shutdown.ts';

// Everything the api writes (database, keys, engines' data, which inherit the mask) is for this user only.
process.umask(0o077);

const config = orExit(loadConfig);
// With a certificate the panel listens with HTTPS; a missing or wrong file stops the start here, by name.
const https: { cert: string; key: string } | undefined = orExit(() => config.tls && readPanelTls(config.tls));

const db = await openDatabaseOrExit(config);
const { app, ctx } = await buildApp(config, db, { https }).catch((error: Error) => {
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
});

if (config.devIdentityProvider) {
  app.log.warn(
    '!!! DEVELOPMENT SIGN-IN IS ON: anyone can sign in as anyone through /dev-discord. Set DISCORD_CLIENT_ID to use Discord. !!!',
  );
  app.log.warn(
    config.hostExplicit
      ? `Development sign-in is on and HOST=${config.host} was set explicitly: anyone who can reach that address can sign in as anyone.`
      : `Development sign-in is on: listening on ${config.host} only (set HOST to listen elsewhere).`,
  );
}

// Made before listening: it counts every connection, to cut those left when the grace period ends.
const shutdown = gracefulShutdown(app, ctx);

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  console.error(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  process.exit(1);
}
const stopBackground = await startBackground(ctx).catch((error: Error) => {
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
});
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
// Where it listens is part of this line: with development sign-in, 127.0.0.1 unless HOST was set.
console.log(
  `Canopy panel is running at ${https ? 'https' : 'http'}://localhost:${port} (listening on ${config.host}${config.devIdentityProvider ? ', development sign-in' : ''}; database: ${db.dialect})`,
);

if (ctx.gateway) console.log(gatewayStartLine(config, ctx.gateway));

// Ordered shutdown (lifecycle/shutdown.ts): not ready, hand the scheduler over, stop accepting work, finish
// requests, leave engines running, close the database. A second signal forces it only once the grace has passed.
const { delayMs, graceMs } = config.shutdown;
stopOnSignals(() => shutdown({ stopBackground, closeDatabase: () => db.close() }), { forceAfterMs: delayMs + graceMs });
