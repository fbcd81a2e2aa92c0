import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export interface SessionClaims {
  /** Discord id of the user. */
  sub: string;
  /** Refresh-token family the session came from, so revoking a family ends its sessions too. */
  fam: string;
  iat: number;
  exp: number;
}

/**
 * Signs and verifies session tokens: `v1.<claims>.<HMAC-SHA256>`, stateless and short-lived. It also
 * seals short-lived secrets at rest (a rotated refresh token during its grace window) with a key derived
 * from the same secret: whoever holds that secret can already sign sessions for anyone, so sealing with it
 * gives a database thief nothing, and adds no new secret to keep.
 */
export class SessionSigner {
  // A KeyObject made once: createHmac with raw bytes re-imports the key on every request (6x slower).
  private readonly key: KeyObject;
  private readonly sealKey: Buffer;
  private readonly ttlSeconds: number;
  /**
   * Tokens whose signature this signer has checked, with their claims: a session token comes with every request
   * of its life, and checking its HMAC again each time was most of the cost of authenticating. Only a token that
   * passed the check with this signer's key gets in, so a forged one never hits, and a rotated secret (a new
   * signer) starts empty. Expiry is still decided on every call. Insertion order evicts the oldest first.
   */
  private readonly verified = new Map<string, Readonly<SessionClaims>>();
  private readonly verifiedLimit: number;
  constructor(secret: string, ttlSeconds: number, verifiedLimit = 10_000) {
    this.key = createSecretKey(Buffer.from(secret));
    // A separate key per purpose, so a sealed value can never pass as a signature or the other way round.
    this.sealKey = Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), 'canopy seal v1', 32));
    this.ttlSeconds = ttlSeconds;
    this.verifiedLimit = verifiedLimit;
  }

  /** Encrypts `plain` (AES-256-GCM) bound to `context`; only unseal with the same context opens it. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `s1.${b64(iv)}.${b64(data)}.${b64(cipher.getAuthTag())}`;
  }

  /** The plain text of a value sealed with the same context, or null for anything else. */
  unseal(sealed: string, context: string): string | null {
    const [version, iv, data, tag] = sealed.split('.');
    if (version !== 's1' || !iv || !data || !tag) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  /** A fresh token for the user, valid for the configured lifetime from `now` (ms). */
  sign(sub: string, fam: string, now = Date.now()): string {
    const iat = Math.floor(now / 1000);
    const body = `v1.${b64(JSON.stringify({ sub, fam, iat, exp: iat + this.ttlSeconds }))}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of a genuine token, 'expired' for a genuine but old one, null for anything else. */
  verify(token: string, now = Date.now()): Readonly<SessionClaims> | 'expired' | null {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > now) return known;
      this.verified.delete(token);
      return 'expired';
    }
    const claims = this.check(token);
    if (!claims) return null;
    if (claims.exp * 1000 <= now) return 'expired';
    if (this.verified.size >= this.verifiedLimit) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, Object.freeze(claims));
    return claims;
  }

  /** The claims of a token whose signature holds under this signer's key (expired or not), else null. */
  private check(token: string): SessionClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'v1') return null;
    const body = `${parts[0]}.${parts[1]}`;
    const given = Buffer.from(parts[2] ?? '');
    const expected = Buffer.from(this.mac(body));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: SessionClaims;
    try {
      claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString());
    } catch {
      return null;
    }
    if (typeof claims.sub !== 'string' || typeof claims.fam !== 'string' || typeof claims.exp !== 'number') return null;
    return claims;
  }
}

/** A new opaque refresh token (only its hash is stored). */
export const newRefreshToken = () => randomBytes(32).toString('base64url');

/** The stored form of a refresh token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
