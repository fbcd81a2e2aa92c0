import { gcm } from '@noble/ciphers/aes.js';

/**
 * AES-GCM with a 256-bit key saved as a JWK, as the session storage keeps it (spec section 9). Two
 * implementations read and write the same bytes: WebCrypto's, and @noble/ciphers' for pages that have no
 * `crypto.subtle` (browsers give it only to secure contexts: HTTPS or localhost; ADR 0028).
 */
export interface AesGcm<Key> {
  /** Loads a key saved by either implementation; throws when it is not a 256-bit AES-GCM key. */
  importJwk(jwk: JsonWebKey): Promise<Key>;
  /** A new random key and the JWK to save it as. */
  generate(): Promise<{ key: Key; jwk: JsonWebKey }>;
  /** The cipher text followed by the 16-byte tag. */
  encrypt(key: Key, iv: Uint8Array<ArrayBuffer>, plain: Uint8Array<ArrayBuffer>): Promise<Uint8Array>;
  /** The plain text; throws when the tag does not match (wrong key, damaged value). */
  decrypt(key: Key, iv: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array>;
}

const ALGORITHM = { name: 'AES-GCM', length: 256 } as const;
const KEY_BYTES = 32;

/** WebCrypto's AES-GCM (secure contexts). */
export function subtleAesGcm(subtle: SubtleCrypto): AesGcm<CryptoKey> {
  return {
    importJwk: (jwk) => subtle.importKey('jwk', jwk, ALGORITHM, true, ['encrypt', 'decrypt']),
    async generate() {
      const key = await subtle.generateKey(ALGORITHM, true, ['encrypt', 'decrypt']);
      return { key, jwk: await subtle.exportKey('jwk', key) };
    },
    encrypt: async (key, iv, plain) => new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, key, plain)),
    decrypt: async (key, iv, data) => new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv }, key, data)),
  };
}

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): Uint8Array => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/** The raw bytes of a saved key, checked as WebCrypto's importKey checks them. */
function rawKeyOf(jwk: JsonWebKey): Uint8Array {
  if (jwk.kty !== 'oct' || typeof jwk.k !== 'string' || (jwk.alg !== undefined && jwk.alg !== 'A256GCM'))
    throw new Error('not an AES-256-GCM key');
  const raw = fromBase64Url(jwk.k);
  if (raw.length !== KEY_BYTES) throw new Error('not a 256-bit key');
  return raw;
}

/**
 * @noble/ciphers' AES-GCM, for pages without `crypto.subtle` (plain HTTP on a non-local address). The key and
 * IVs still come from `crypto.getRandomValues`, which every context has; the JWK is the one WebCrypto exports.
 */
export function nobleAesGcm(
  randomBytes: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>,
): AesGcm<Uint8Array> {
  return {
    importJwk: async (jwk) => rawKeyOf(jwk),
    async generate() {
      const key = randomBytes(new Uint8Array(KEY_BYTES));
      const jwk: JsonWebKey = {
        alg: 'A256GCM',
        ext: true,
        k: toBase64Url(key),
        key_ops: ['encrypt', 'decrypt'],
        kty: 'oct',
      };
      return { key, jwk };
    },
    encrypt: async (key, iv, plain) => gcm(key, iv).encrypt(plain),
    decrypt: async (key, iv, data) => gcm(key, iv).decrypt(data),
  };
}
