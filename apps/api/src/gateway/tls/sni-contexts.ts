import { createSecureContext, type SecureContext } from 'node:tls';
import type { LoginPageCertificate } from '@canopy/contract';
import type { TlsPair } from '../keys.ts';

/** Where the login host's certificate came from (the contract's type); 'self-signed' until one is set. */
type LoginCertSource = LoginPageCertificate;

/**
 * The gateway's certificates by TLS server name (ADR 0027): the login host's own pair for its name, the
 * default (self-signed or CANOPY_GATEWAY_TLS_*) pair for every other name, such as the game's hostnames that
 * server_data.php is asked on. The login pair can be swapped while the server runs (an ACME renewal); new
 * handshakes take it at once, open connections keep theirs.
 */
export class SniContexts {
  readonly loginName: string | undefined;
  private login: SecureContext | undefined;
  private source: LoginCertSource = 'self-signed';

  constructor(loginName: string | undefined) {
    this.loginName = loginName?.toLowerCase();
  }

  /** Serves `pair` for the login host from the next handshake on; throws if the key does not match. */
  setLogin(pair: TlsPair, source: Exclude<LoginCertSource, 'self-signed'>): void {
    if (!this.loginName) throw new Error('no login host is configured');
    this.login = createSecureContext({ cert: pair.cert, key: pair.key });
    this.source = source;
  }

  /** Which certificate the login host is served with now. */
  loginSource(): LoginCertSource {
    return this.source;
  }

  /** node:tls's SNICallback: the login context for the login name, the server's default otherwise. */
  readonly callback = (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void): void => {
    cb(null, this.login && servername.toLowerCase() === this.loginName ? this.login : undefined);
  };
}
