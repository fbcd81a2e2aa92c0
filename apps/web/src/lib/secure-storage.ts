import { messages } from '@canopy/contract';
import { type AesGcm, nobleAesGcm, subtleAesGcm } from './aes-gcm.ts';

/** Raised when no AES key can be created, loaded or saved; its message is the spec's text. */
export class KeySetupError extends Error {
  constructor(cause?: unknown) {
    super(messages.keySetupFailed, { cause });
    this.name = 'KeySetupError';
  }
}

/** An encrypted string store on top of a Web Storage area. */
export interface SecureStorage {
  /** The decrypted value, or null when missing; a value that fails to decrypt is removed. */
  getItem(name: string): Promise<string | null>;
  /** Encrypts and stores the value under the name. */
  setItem(name: string, value: string): Promise<void>;
  /** Removes the value. */
  removeItem(name: string): void;
}

/** The bits of the Web Storage interface we rely on (so node tests can pass a Map-backed fake). */
export type StorageArea = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface SecureStorageOptions {
  storage: StorageArea;
  /** WebCrypto; undefined outside a secure context, where @noble/ciphers does the same AES-GCM. */
  subtle: SubtleCrypto | undefined;
  /** Fills an array with random bytes (crypto.getRandomValues). */
  randomBytes: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;
  /** Prefix of every storage key, the key's own entry included. */
  prefix?: string;
}

const IV_BYTES = 12;

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

/** Creates a store that encrypts each value with AES-GCM, a fresh 12-byte IV per value. */
export function createSecureStorage(options: SecureStorageOptions): SecureStorage {
  const { storage, subtle, randomBytes, prefix = 'canopy.' } = options;
  const keyName = `${prefix}key`;
  // Either implementation reads what the other wrote: the same JWK, the same IV + cipher text + tag.
  const aes: AesGcm<unknown> = subtle ? subtleAesGcm(subtle) : nobleAesGcm(randomBytes);
  let keyPromise: Promise<unknown> | null = null;

  async function loadOrCreateKey(): Promise<unknown> {
    const saved = storage.getItem(keyName);
    if (saved) {
      try {
        return await aes.importJwk(JSON.parse(saved) as JsonWebKey);
      } catch {
        // A damaged key cannot decrypt anything stored with it; start over with a new one
        // (the old values then fail to decrypt and are removed one by one).
        storage.removeItem(keyName);
      }
    }
    try {
      const { key, jwk } = await aes.generate();
      storage.setItem(keyName, JSON.stringify(jwk));
      return key;
    } catch (error) {
      throw new KeySetupError(error);
    }
  }

  function key(): Promise<unknown> {
    // One key per page: concurrent first calls must not generate two different keys.
    keyPromise ??= loadOrCreateKey().catch((error: unknown) => {
      keyPromise = null;
      throw error;
    });
    return keyPromise;
  }

  return {
    async getItem(name) {
      const stored = storage.getItem(prefix + name);
      if (stored === null) return null;
      const cryptoKey = await key();
      try {
        const bytes = fromBase64(stored);
        const iv = bytes.slice(0, IV_BYTES);
        const data = bytes.slice(IV_BYTES);
        return new TextDecoder().decode(await aes.decrypt(cryptoKey, iv, data));
      } catch {
        storage.removeItem(prefix + name);
        return null;
      }
    },
    async setItem(name, value) {
      const cryptoKey = await key();
      const iv = randomBytes(new Uint8Array(IV_BYTES));
      const cipher = await aes.encrypt(cryptoKey, iv, new TextEncoder().encode(value));
      const out = new Uint8Array(IV_BYTES + cipher.byteLength);
      out.set(iv, 0);
      out.set(cipher, IV_BYTES);
      storage.setItem(prefix + name, toBase64(out));
    },
    removeItem(name) {
      storage.removeItem(prefix + name);
    },
  };
}

/** The browser's secure store: localStorage plus WebCrypto, or @noble/ciphers where the page has no WebCrypto. */
export function browserSecureStorage(): SecureStorage {
  return createSecureStorage({
    storage: window.localStorage,
    // Browsers leave crypto.subtle undefined outside secure contexts (plain HTTP on a non-local address).
    subtle: window.crypto.subtle as SubtleCrypto | undefined,
    randomBytes: (bytes) => window.crypto.getRandomValues(bytes),
  });
}
