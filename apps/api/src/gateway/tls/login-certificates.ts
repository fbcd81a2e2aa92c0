import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { type LoginHostConfig, loginUrlOf } from '../../config/login-host.ts';
import { capConnectionsPerAddress } from '../../http/connections.ts';
import { createAcmeHttpServer } from '../http/acme-http.ts';
import type { GatewayContext } from '../tenants.ts';
import { AcmeCertificates } from './acme-certificates.ts';
import { ChallengeBook } from './challenge-book.ts';
import { SniContexts } from './sni-contexts.ts';

/** The login host's certificate side as running: the SNI table, and the ACME parts when ACME is on. */
export interface LoginCertificates {
  sni: SniContexts;
  /** The ACME side (tests call check() to see an issue or a renewal through). */
  acme?: AcmeCertificates;
  /** The HTTP-01 listener's bound port (CANOPY_ACME_HTTP_PORT; 0 picks one). */
  acmeHttpPort?: number;
  stop(): Promise<void>;
}

const listen = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

/**
 * Sets up the login host's certificate (ADR 0027): the operator's PEM pair, or ACME (the HTTP-01 listener and
 * the renewals), or nothing, in which case the login host, like every other name, gets the self-signed pair,
 * which the game's web view does not trust: development only, and said so in the log.
 */
export async function startLoginCertificates(ctx: GatewayContext, host: string): Promise<LoginCertificates> {
  const login = ctx.config.gateway.login;
  const sni = new SniContexts(login?.name);
  const selfSignedWarning = (name: string) =>
    `gateway: the login page (${name}) is served with the self-signed certificate, which the game's web view does not ` +
    'trust: development only. Set CANOPY_LOGIN_HOST with CANOPY_LOGIN_TLS_CERT/KEY or CANOPY_LOGIN_ACME=on.';
  if (!login) {
    if (ctx.config.nodeEnv === 'production') ctx.log.warn(selfSignedWarning('the Host asked for'));
    return { sni, stop: async () => {} };
  }
  if (login.tls) {
    // Before the TLS thread starts, which takes the pair set here.
    void sni.setLogin(
      { cert: readFileSync(login.tls.certFile, 'utf8'), key: readFileSync(login.tls.keyFile, 'utf8') },
      'operator',
    );
    return { sni, stop: async () => {} };
  }
  if (!login.acme) {
    ctx.log.warn(selfSignedWarning(login.name));
    return { sni, stop: async () => {} };
  }
  return startAcme(ctx, sni, host, { ...login, acme: login.acme });
}

type AcmeLogin = LoginHostConfig & { acme: NonNullable<LoginHostConfig['acme']> };

async function startAcme(
  ctx: GatewayContext,
  sni: SniContexts,
  host: string,
  login: AcmeLogin,
): Promise<LoginCertificates> {
  const challenges = new ChallengeBook();
  const http = createAcmeHttpServer({ challenges, loginUrl: loginUrlOf(login), now: ctx.now });
  capConnectionsPerAddress(http, ctx.config.http.connectionsPerIp);
  await listen(http, login.acme.httpPort, host);
  http.on('error', (error) => ctx.log.error({ err: error }, 'gateway acme http'));
  const address = http.address();
  const acmeHttpPort = typeof address === 'object' && address ? address.port : login.acme.httpPort;
  const acme = new AcmeCertificates(
    {
      dir: join(ctx.config.dataDir, 'gateway-tls', 'acme'),
      name: login.name,
      directoryUrl: login.acme.directoryUrl,
      email: login.acme.email,
    },
    {
      log: { info: (m) => ctx.log.info(m), warn: (m) => ctx.log.warn(m), error: (m) => ctx.log.error(m) },
      now: ctx.now,
      challenges,
      install: (pair) => sni.setLogin(pair, 'acme'),
    },
  );
  if (!acme.start())
    ctx.log.warn(
      `gateway: no ACME certificate for ${login.name} yet; the login page is served with the self-signed one until ` +
        `${login.acme.directoryUrl} issues it (HTTP-01 on port ${acmeHttpPort}).`,
    );
  return {
    sni,
    acme,
    acmeHttpPort,
    async stop() {
      acme.stop();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
