import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export interface SessionClaims {
  /** Discord id of the user. */
  sub: string;
  /** Refresh-token family the session came from, so revoking a family ends its sessions too. */
  fam: string;
  iat: number;
  exp: number;
}

/** Signs and verifies session tokens: `v1.<claims>.<HMAC-SHA256>`, stateless and short-lived. */
export class SessionSigner {
  private readonly key: Buffer;
  private readonly ttlSeconds: number;
  constructor(secret: string, ttlSeconds: number) {
    this.key = Buffer.from(secret);
    this.ttlSeconds = ttlSeconds;
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
  verify(token: string, now = Date.now()): SessionClaims | 'expired' | null {
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
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null;
    return claims.exp * 1000 <= now ? 'expired' : claims;
  }
}

/** A new opaque refresh token (only its hash is stored). */
export const newRefreshToken = () => randomBytes(32).toString('base64url');

/** The stored form of a refresh token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
