import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import acme from 'acme-client';
import { ensurePrivateDir, writePrivateFileAtomic } from '../../private-files.ts';
import type { GatewayLog } from '../gateway-log.ts';
import type { TlsPair } from '../keys.ts';
import type { ChallengeBook } from './challenge-book.ts';

const DAY_MS = 86_400_000;
/** Renew once fewer than this many ms remain on the certificate (Let's Encrypt's are good for 90 days). */
export const RENEW_BEFORE_MS = 30 * DAY_MS;
/** How often the certificate's remaining time is checked while the api runs. */
export const CHECK_EVERY_MS = DAY_MS;
/** First retry after a failed order; doubled after each further failure, up to CHECK_EVERY_MS. */
export const RETRY_FIRST_MS = 15 * 60_000;

/** What the ACME side is told (from CANOPY_LOGIN_HOST and CANOPY_ACME_*). */
export interface AcmeOptions {
  /** `$CANOPY_DATA_DIR/gateway-tls/acme`: the account key and the certificate with its key, 0600. */
  dir: string;
  /** The login host's DNS name: the certificate's only name. */
  name: string;
  directoryUrl: string;
  email?: string;
}

/** Its surroundings: logs, the clock that decides when to renew, the HTTP-01 answers and the TLS swap. */
export interface AcmeDeps {
  log: GatewayLog;
  now: () => number;
  challenges: ChallengeBook;
  /**
   * Serves a pair for the login host from the next handshake on; throws at once when the key does not fit the
   * certificate, and settles once the server serves it.
   */
  install: (pair: TlsPair) => void | Promise<void>;
}

/** The outcome of one check: the stored certificate kept, a new one issued, or the order failed. */
export type AcmeCheck =
  | { result: 'kept' | 'issued'; notAfter: number }
  | { result: 'failed'; error: string; retryInMs: number };

interface StoredCertificate {
  pair: TlsPair;
  notAfter: number;
}

const readOrUndefined = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Obtains and renews the login host's certificate over ACME (RFC 8555) with acme-client, answering HTTP-01
 * through the gateway's plain-HTTP listener (ADR 0027). The certificate is checked at start and every day and
 * renewed once fewer than 30 days remain; a new one is swapped in without a restart. A failed order is retried
 * with a growing delay; meanwhile a still-valid stored certificate (or the self-signed one) keeps being served.
 */
export class AcmeCertificates {
  private readonly opts: AcmeOptions;
  private readonly deps: AcmeDeps;
  private inFlight: Promise<AcmeCheck> | undefined;
  private dailyTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  /** Whether a certificate of ours is installed (a stored one that loaded, or one just issued). */
  private serving = false;

  constructor(opts: AcmeOptions, deps: AcmeDeps) {
    this.opts = opts;
    this.deps = deps;
  }

  private get certFile() {
    return join(this.opts.dir, 'cert.pem');
  }
  private get keyFile() {
    return join(this.opts.dir, 'key.pem');
  }

  /**
   * Serves the stored certificate if it still fits (true), then checks in the background and every day.
   * False: nothing usable is stored yet, so the login host stays on the self-signed pair until the first order.
   */
  start(): boolean {
    ensurePrivateDir(this.opts.dir);
    const stored = this.stored();
    if (stored && stored.notAfter > this.deps.now()) {
      try {
        // Nothing serves yet at start (the TLS thread starts with what is installed): only the check matters.
        void this.deps.install(stored.pair);
        this.serving = true;
      } catch (error) {
        this.deps.log.warn(`gateway acme: the stored certificate cannot be used (${(error as Error).message})`);
      }
    }
    void this.check();
    this.dailyTimer = setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.dailyTimer.unref();
    return this.serving;
  }

  /** Stops the timers; an order already under way finishes but installs nothing. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.dailyTimer);
    clearTimeout(this.retryTimer);
  }

  /** Checks the certificate now and renews it when due; concurrent calls share one check. */
  check(): Promise<AcmeCheck> {
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(): Promise<AcmeCheck> {
    const stored = this.stored();
    // Kept only while it is the one served: a stored pair that would not load is ordered again.
    if (this.serving && stored && stored.notAfter - this.deps.now() > RENEW_BEFORE_MS)
      return { result: 'kept', notAfter: stored.notAfter };
    try {
      const issued = await this.order();
      if (this.stopped) return { result: 'issued', notAfter: issued.notAfter };
      // Installed first: a certificate that does not load is never stored over a good one.
      await this.deps.install(issued.pair);
      this.serving = true;
      writePrivateFileAtomic(this.keyFile, issued.pair.key);
      writePrivateFileAtomic(this.certFile, issued.pair.cert);
      this.failures = 0;
      clearTimeout(this.retryTimer);
      this.deps.log.info(
        `gateway acme: certificate for ${this.opts.name} issued, valid until ${new Date(issued.notAfter).toISOString()}`,
      );
      return { result: 'issued', notAfter: issued.notAfter };
    } catch (error) {
      this.failures++;
      const retryInMs = Math.min(RETRY_FIRST_MS * 2 ** (this.failures - 1), CHECK_EVERY_MS);
      const message = (error as Error).message;
      this.deps.log.error(
        `gateway acme: no certificate for ${this.opts.name} from ${this.opts.directoryUrl}: ${message}; ` +
          `retrying in ${Math.round(retryInMs / 60_000)} min (port 80 must reach this machine for HTTP-01)`,
      );
      if (!this.stopped) {
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => void this.check(), retryInMs);
        this.retryTimer.unref();
      }
      return { result: 'failed', error: message, retryInMs };
    }
  }

  // The stored certificate, when its key is there and it names the login host.
  private stored(): StoredCertificate | undefined {
    const cert = readOrUndefined(this.certFile);
    const key = readOrUndefined(this.keyFile);
    if (!cert || !key) return undefined;
    try {
      const info = acme.crypto.readCertificateInfo(cert);
      const names = [info.domains.commonName, ...info.domains.altNames].map((n) => n?.toLowerCase());
      if (!names.includes(this.opts.name)) return undefined;
      return { pair: { cert, key }, notAfter: info.notAfter.getTime() };
    } catch {
      return undefined;
    }
  }

  // The account key, made once (ECDSA P-256) and kept so that renewals use the same ACME account.
  private async accountKey(): Promise<Buffer> {
    const file = join(this.opts.dir, 'account-key.pem');
    const stored = readOrUndefined(file);
    if (stored) return Buffer.from(stored);
    const key = await acme.crypto.createPrivateEcdsaKey();
    writePrivateFileAtomic(file, key.toString());
    return key;
  }

  private async order(): Promise<StoredCertificate> {
    const { name, directoryUrl, email } = this.opts;
    const client = new acme.Client({ directoryUrl, accountKey: await this.accountKey() });
    // RSA for the certificate itself: the game's web view runs on old phones too.
    const [key, csr] = await acme.crypto.createCsr({ commonName: name, altNames: [name] });
    const cert = await client.auto({
      csr,
      email,
      // Turning CANOPY_LOGIN_ACME on is the operator's agreement to the CA's terms (README).
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // acme-client would first fetch the challenge itself through DNS and port 80, which a machine behind NAT
      // or a split DNS often cannot do for its own name; the CA checks it anyway.
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        if (challenge.type !== 'http-01') throw new Error(`unexpected challenge type ${challenge.type}`);
        this.deps.challenges.add(challenge.token, keyAuthorization);
      },
      challengeRemoveFn: async (_authz, challenge) => {
        this.deps.challenges.remove(challenge.token);
      },
    });
    const info = acme.crypto.readCertificateInfo(cert);
    const names = [info.domains.commonName, ...info.domains.altNames].map((n) => n?.toLowerCase());
    if (!names.includes(name)) throw new Error(`the CA issued a certificate that does not name ${name}`);
    return { pair: { cert, key: key.toString() }, notAfter: info.notAfter.getTime() };
  }
}
