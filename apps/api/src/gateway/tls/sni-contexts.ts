import { createSecureContext, type SecureContext } from 'node:tls';
import type { LoginPageCertificate } from '@canopy/contract';
import type { TlsPair } from '../keys.ts';

/** Where the login host's certificate came from (the contract's type); 'self-signed' until one is set. */
type LoginCertSource = LoginPageCertificate;

/** Told of each new login pair; settles once it is served (the gateway's TLS thread, ADR 0032). */
export type LoginPairListener = (pair: TlsPair, source: Exclude<LoginCertSource, 'self-signed'>) => Promise<void>;

/**
 * The gateway's certificates by TLS server name (ADR 0027): the login host's own pair for its name, the
 * default (self-signed or CANOPY_GATEWAY_TLS_*) pair for every other name, such as the game's hostnames that
 * server_data.php is asked on. The login pair can be swapped while the server runs (an ACME renewal); new
 * handshakes take it at once, open connections keep theirs. The api keeps one (the pair and its source) and the
 * TLS thread its own, which listens for the api's swaps.
 */
export class SniContexts {
  readonly loginName: string | undefined;
  private login: SecureContext | undefined;
  private pair: TlsPair | undefined;
  private source: LoginCertSource = 'self-signed';
  private readonly listeners = new Set<LoginPairListener>();

  constructor(loginName: string | undefined) {
    this.loginName = loginName?.toLowerCase();
  }

  /**
   * Serves `pair` for the login host from the next handshake on; throws at once if the key does not match. The
   * promise settles once every listener serves it too.
   */
  setLogin(pair: TlsPair, source: Exclude<LoginCertSource, 'self-signed'>): Promise<void> {
    if (!this.loginName) throw new Error('no login host is configured');
    this.login = createSecureContext({ cert: pair.cert, key: pair.key });
    this.pair = pair;
    this.source = source;
    return Promise.all([...this.listeners].map((listener) => listener(pair, source))).then(() => {});
  }

  /** Which certificate the login host is served with now. */
  loginSource(): LoginCertSource {
    return this.source;
  }

  /** The login host's pair and its source, when one is set (a TLS thread starts with it). */
  loginPair(): { pair: TlsPair; source: Exclude<LoginCertSource, 'self-signed'> } | undefined {
    return this.pair && this.source !== 'self-signed' ? { pair: this.pair, source: this.source } : undefined;
  }

  /** Calls `listener` with every later pair; returns its removal. */
  onLogin(listener: LoginPairListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** node:tls's SNICallback: the login context for the login name, the server's default otherwise. */
  readonly callback = (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void): void => {
    cb(null, this.login && servername.toLowerCase() === this.loginName ? this.login : undefined);
  };
}
