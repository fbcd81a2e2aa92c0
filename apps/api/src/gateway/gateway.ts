import { loginUrlOf } from '../config/login-host.ts';
import { FrontProcess } from './front/front-process.ts';
import { gatewayRepo } from './gateway.repo.ts';
import type { GatewayLog } from './gateway-log.ts';
import { createGatewayHandler } from './http/gateway-handler.ts';
import { GatewayTlsThread } from './http/tls-thread-host.ts';
import { loadGatewayKey, loadTlsPair } from './keys.ts';
import type { GatewayContext } from './tenants.ts';
import { type LoginCertificates, startLoginCertificates } from './tls/login-certificates.ts';

/** The running gateway: its bound ports (ports 0 in the configuration become real ones) and its stop. */
export interface GatewayHandle {
  tlsPort: number;
  udpPort: number;
  /** The ENet front child process (tests kill it to see it restarted). */
  front: FrontProcess;
  /** The login host's certificates (ADR 0027): the SNI table, and the ACME side when it is on. */
  login: LoginCertificates;
  /** The HTTPS server's thread (ADR 0032; tests end it to see it restarted). */
  https: GatewayTlsThread;
  stop(): Promise<void>;
}

/**
 * Starts the login gateway (ADR 0026): the ENet front as a child process, then the HTTPS side in a worker thread
 * that hands its requests to this process's handlers (ADR 0032).
 * It listens on every interface unless HOST was set: players' devices reach it from outside even while the
 * panel itself stays on this machine for development sign-in.
 */
export async function startGateway(ctx: GatewayContext): Promise<GatewayHandle> {
  const { config } = ctx;
  const host = config.hostExplicit ? config.host : '0.0.0.0';
  const holder = config.gateway.udpPort ? await gatewayRepo.serverOnPort(ctx.db, config.gateway.udpPort) : undefined;
  if (holder)
    throw new Error(
      `hosted server ${holder.name} holds UDP port ${config.gateway.udpPort}, the gateway's (CANOPY_GATEWAY_UDP_PORT): set CANOPY_GATEWAY_UDP_PORT to a free port outside CANOPY_GAME_PORTS`,
    );
  const gatewayKey = loadGatewayKey(config.dataDir);
  const tls = await loadTlsPair(config);
  const log: GatewayLog = {
    info: (msg) => ctx.log.info(msg),
    warn: (msg) => ctx.log.warn(msg),
    error: (msg) => ctx.log.error(msg),
  };
  const front = new FrontProcess(
    {
      key: gatewayKey,
      host,
      port: config.gateway.udpPort,
      publicIp: config.publicIp,
    },
    log,
  );
  const udpPort = await front.start();
  let login: LoginCertificates;
  try {
    login = await startLoginCertificates(ctx, host);
  } catch (error) {
    await front.stop();
    throw error;
  }
  const loginHost = config.gateway.login;
  const handle = createGatewayHandler(ctx, {
    loginUrl: loginHost && loginUrlOf(loginHost),
    gatewayKey,
    udpPort: () => front.udpPort,
  });
  const https = new GatewayTlsThread(
    {
      host,
      port: config.gateway.tlsPort,
      tls,
      connectionsPerIp: config.http.connectionsPerIp,
      handshakes: config.gateway.handshakes,
    },
    login.sni,
    handle,
    log,
  );
  let tlsPort: number;
  try {
    tlsPort = await https.start();
  } catch (error) {
    await https.stop();
    await login.stop();
    await front.stop();
    throw error;
  }
  return {
    tlsPort,
    udpPort,
    front,
    login,
    https,
    async stop() {
      await https.stop();
      await login.stop();
      await front.stop();
    },
  };
}
