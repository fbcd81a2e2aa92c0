import type { LoginPageCertificate } from '@canopy/contract';

// The login page's own host and its certificate (CANOPY_LOGIN_*, CANOPY_ACME_*; ADR 0027): what config.ts reads for
// it, the checks across those variables, and what the gateway derives from it.

/** Let's Encrypt's production directory: CANOPY_ACME_DIRECTORY_URL's default. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/** The operator's login host and where its certificate comes from (ADR 0027). */
export interface LoginHostConfig {
  /** Lower-case DNS name: the TLS server name the login certificate is served for. */
  name: string;
  /** The port players' clients reach it on; unset: 443 (omitted from loginurl). */
  port?: number;
  /** The operator's PEM files for it. */
  tls?: { certFile: string; keyFile: string };
  /** Obtain and renew its certificate over ACME (HTTP-01). */
  acme?: { directoryUrl: string; email?: string; httpPort: number };
}

/** What server_data.php's `loginurl|` names for a configured login host: `name[:port]`, no `:443`. */
export const loginUrlOf = (login: LoginHostConfig) =>
  login.port === undefined || login.port === 443 ? login.name : `${login.name}:${login.port}`;

/** Where a configured login host's certificate comes from (what the gateway starts with, ADR 0027). */
export const configuredLoginCertificate = (login: LoginHostConfig): LoginPageCertificate =>
  login.tls ? 'operator' : login.acme ? 'acme' : 'self-signed';

/** The parsed variables the checks across the login host's settings read. */
interface LoginHostEnv {
  NODE_ENV: string;
  CANOPY_LOGIN_HOST?: unknown;
  CANOPY_LOGIN_TLS_CERT?: string | undefined;
  CANOPY_LOGIN_TLS_KEY?: string | undefined;
  CANOPY_LOGIN_ACME: string;
  CANOPY_ACME_HTTP_PORT: number;
  CANOPY_GATEWAY_TLS_PORT: number;
}

/** What is wrong across the login host's variables (each alone is checked by its schema), by variable. */
export function loginHostIssues(env: LoginHostEnv): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  if (!env.CANOPY_LOGIN_TLS_CERT !== !env.CANOPY_LOGIN_TLS_KEY)
    issues.push({
      path: [env.CANOPY_LOGIN_TLS_CERT ? 'CANOPY_LOGIN_TLS_KEY' : 'CANOPY_LOGIN_TLS_CERT'],
      message: 'CANOPY_LOGIN_TLS_CERT and CANOPY_LOGIN_TLS_KEY are set together or not at all',
    });
  const loginCert = Boolean(env.CANOPY_LOGIN_TLS_CERT || env.CANOPY_LOGIN_TLS_KEY);
  const acme = env.CANOPY_LOGIN_ACME === 'on';
  if ((loginCert || acme) && !env.CANOPY_LOGIN_HOST)
    issues.push({
      path: ['CANOPY_LOGIN_HOST'],
      message: `is required with ${acme ? 'CANOPY_LOGIN_ACME=on' : 'CANOPY_LOGIN_TLS_CERT'} (the name the certificate is for)`,
    });
  if (loginCert && acme)
    issues.push({
      path: ['CANOPY_LOGIN_ACME'],
      message: 'give CANOPY_LOGIN_TLS_CERT/KEY or turn CANOPY_LOGIN_ACME on, not both',
    });
  if (env.NODE_ENV === 'production' && env.CANOPY_LOGIN_HOST && !loginCert && !acme)
    issues.push({
      path: ['CANOPY_LOGIN_HOST'],
      message:
        "needs a certificate the game's web view trusts in production: set CANOPY_LOGIN_TLS_CERT and CANOPY_LOGIN_TLS_KEY, or CANOPY_LOGIN_ACME=on",
    });
  if (acme && env.CANOPY_ACME_HTTP_PORT !== 0 && env.CANOPY_ACME_HTTP_PORT === env.CANOPY_GATEWAY_TLS_PORT)
    issues.push({
      path: ['CANOPY_ACME_HTTP_PORT'],
      message: 'must differ from CANOPY_GATEWAY_TLS_PORT',
    });

  return issues;
}
