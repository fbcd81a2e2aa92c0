import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { loadSessionSecret } from '../auth/secret.ts';
import type { Config } from '../config.ts';

/** Seals and opens short secrets (webhook URLs) stored in the database; tampering or a wrong key fails to open. */
export interface Sealer {
  seal(plain: string): string;
  /** The plain text, or null when the key changed (the session secret was rotated) or the value was altered. */
  open(sealed: string): string | null;
}

const VERSION = 'v1';

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from the session secret, which every replica already shares; a
 * separate label keeps it apart from the session-signing use. Sealed form: v1.<iv>.<tag>.<ciphertext> (base64url).
 */
export function createSealer(secret: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'canopy', 'canopy sealed webhook urls', 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** A stable, non-reversible name for a destination (the per-destination rate limit counts by it). */
export function destinationOf(url: string): string {
  return createHash('sha256').update(url).digest('base64url').slice(0, 22);
}

const sealers = new WeakMap<Config, Sealer>();

/** The api's sealer, made once per configuration from the session secret (CANOPY_SESSION_SECRET or its key file). */
export function sealerOf(config: Config): Sealer {
  let sealer = sealers.get(config);
  if (!sealer) {
    sealer = createSealer(loadSessionSecret(config.sessionSecret, config.dataDir));
    sealers.set(config, sealer);
  }
  return sealer;
}
