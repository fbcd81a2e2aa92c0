import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSecureStorage, KeySetupError, type StorageArea } from '../src/lib/secure-storage.ts';
import { createSessionStore } from '../src/lib/session.ts';

/** A Map-backed stand-in for localStorage. */
function memoryStorage(): StorageArea & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

const make = (storage: StorageArea, subtle: SubtleCrypto | undefined = crypto.subtle) =>
  createSecureStorage({ storage, subtle, randomBytes: (b) => crypto.getRandomValues(b) });

// A page served over plain HTTP on a non-local address has no crypto.subtle (not a secure context).
const withoutSubtle = (storage: StorageArea) => make(storage, undefined);

describe('secure storage', () => {
  it('round-trips a value and never stores the plain text', async () => {
    const area = memoryStorage();
    const store = make(area);
    await store.setItem('token', 'secret-value');
    assert.equal(await store.getItem('token'), 'secret-value');
    assert.ok(![...area.map.values()].some((v) => v.includes('secret-value')));
    // The key survives a reload: a second store over the same area can decrypt.
    assert.equal(await make(area).getItem('token'), 'secret-value');
  });

  it('keeps a 256-bit key and a fresh 12-byte IV per value', async () => {
    const area = memoryStorage();
    const store = make(area);
    await store.setItem('a', 'same');
    const first = area.map.get('canopy.a');
    await store.setItem('a', 'same');
    const second = area.map.get('canopy.a');
    assert.notEqual(first, second);
    const jwk = JSON.parse(area.map.get('canopy.key') ?? '{}') as JsonWebKey;
    assert.equal(jwk.alg, 'A256GCM');
    // 12-byte IV + 4 bytes of text + 16-byte tag.
    assert.equal(Buffer.from(second ?? '', 'base64').length, 12 + 4 + 16);
  });

  it('removes a value that fails to decrypt', async () => {
    const area = memoryStorage();
    const store = make(area);
    await store.setItem('token', 'v');
    area.map.set('canopy.token', Buffer.from('garbage-garbage-garbage-garbage').toString('base64'));
    assert.equal(await store.getItem('token'), null);
    assert.equal(area.map.has('canopy.token'), false);
  });

  it('drops values of a replaced key', async () => {
    const area = memoryStorage();
    await make(area).setItem('token', 'v');
    area.map.set('canopy.key', 'not a jwk');
    assert.equal(await make(area).getItem('token'), null);
    assert.equal(area.map.has('canopy.token'), false);
  });

  it('throws the spec message when no key can be made', async () => {
    const broken = { ...crypto.subtle, generateKey: () => Promise.reject(new Error('no')) } as unknown as SubtleCrypto;
    const store = make(memoryStorage(), broken);
    await assert.rejects(store.setItem('a', 'b'), (e: unknown) => {
      assert.ok(e instanceof KeySetupError);
      assert.equal(e.message, 'Could not establish a secure session key.');
      return true;
    });
  });
});

describe('secure storage without crypto.subtle (plain HTTP on a non-local address)', () => {
  it('round-trips a value with a 256-bit key and a fresh 12-byte IV per value', async () => {
    const area = memoryStorage();
    const store = withoutSubtle(area);
    await store.setItem('token', 'secret-value');
    assert.equal(await store.getItem('token'), 'secret-value');
    assert.ok(![...area.map.values()].some((v) => v.includes('secret-value')));
    const first = area.map.get('canopy.token');
    await store.setItem('token', 'secret-value');
    assert.notEqual(area.map.get('canopy.token'), first, 'a fresh IV per value');
    // 12-byte IV + 12 bytes of text + 16-byte tag, as WebCrypto lays it out.
    assert.equal(Buffer.from(area.map.get('canopy.token') ?? '', 'base64').length, 12 + 12 + 16);
    assert.equal(await withoutSubtle(area).getItem('token'), 'secret-value', 'the key survives a reload');
  });

  it('saves its key as the JWK WebCrypto exports', async () => {
    const subtleArea = memoryStorage();
    await make(subtleArea).setItem('a', 'x');
    const fallbackArea = memoryStorage();
    await withoutSubtle(fallbackArea).setItem('a', 'x');
    const subtleJwk = JSON.parse(subtleArea.map.get('canopy.key') ?? '{}') as JsonWebKey;
    const fallbackJwk = JSON.parse(fallbackArea.map.get('canopy.key') ?? '{}') as JsonWebKey;
    assert.deepEqual(Object.keys(fallbackJwk).sort(), Object.keys(subtleJwk).sort());
    assert.deepEqual({ ...fallbackJwk, k: '' }, { ...subtleJwk, k: '' });
    assert.equal(Buffer.from(fallbackJwk.k ?? '', 'base64url').length, 32);
  });

  it('decrypts what the WebCrypto path encrypted, and the other way round', async () => {
    const area = memoryStorage();
    await make(area).setItem('session-token', 'from-subtle');
    assert.equal(await withoutSubtle(area).getItem('session-token'), 'from-subtle');
    await withoutSubtle(area).setItem('refresh-token', 'from-fallback');
    assert.equal(await make(area).getItem('refresh-token'), 'from-fallback');
  });

  it('removes a value that fails to decrypt, and values of a replaced key', async () => {
    const area = memoryStorage();
    const store = withoutSubtle(area);
    await store.setItem('token', 'v');
    const stored = Buffer.from(area.map.get('canopy.token') ?? '', 'base64');
    stored.writeUInt8(stored.readUInt8(stored.length - 1) ^ 1, stored.length - 1);
    area.map.set('canopy.token', stored.toString('base64'));
    assert.equal(await store.getItem('token'), null, 'a changed tag does not decrypt');
    assert.equal(area.map.has('canopy.token'), false);

    await store.setItem('token', 'v');
    area.map.set('canopy.key', JSON.stringify({ kty: 'oct', k: 'c2hvcnQ', alg: 'A256GCM' }));
    assert.equal(await withoutSubtle(area).getItem('token'), null);
    assert.equal(area.map.has('canopy.token'), false);
  });

  it('throws the spec message when the key cannot be saved', async () => {
    const full: StorageArea = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    await assert.rejects(withoutSubtle(full).setItem('a', 'b'), (e: unknown) => {
      assert.ok(e instanceof KeySetupError);
      assert.equal(e.message, 'Could not establish a secure session key.');
      return true;
    });
  });
});

describe('session store', () => {
  const login = {
    sessionToken: 's1',
    refreshToken: 'r1',
    user: {
      id: '1',
      username: 'ann',
      discriminator: '0',
      avatar: null,
      email: null,
      growId: null,
      isAdmin: false,
      isSuperAdmin: false,
    },
  };

  it('restores a stored session and logs out when it is missing or invalid', async () => {
    const area = memoryStorage();
    const storage = make(area);
    const first = createSessionStore(() => storage);
    await first.signIn(login);
    const second = createSessionStore(() => make(area));
    await second.restore();
    assert.equal(second.getState().user?.username, 'ann');
    assert.equal(second.getSessionToken(), 's1');

    await storage.setItem('user', '{"id":1}');
    const third = createSessionStore(() => make(area));
    await third.restore();
    assert.equal(third.getState().user, null);
    assert.equal(third.getState().status, 'ready');
    assert.equal(area.map.has('canopy.session-token'), false);
  });

  it('signOut clears tokens and user', async () => {
    const area = memoryStorage();
    const store = createSessionStore(() => make(area));
    await store.signIn(login);
    store.signOut(true);
    assert.equal(store.getState().user, null);
    assert.equal(store.getState().signedOutByUser, true);
    assert.equal(store.getSessionToken(), null);
    assert.deepEqual([...area.map.keys()], ['canopy.key']);
  });

  it('reports a key setup failure on restore', async () => {
    const area = memoryStorage();
    area.map.set('canopy.session-token', 'x');
    const broken = { ...crypto.subtle, generateKey: () => Promise.reject(new Error('no')) } as unknown as SubtleCrypto;
    const store = createSessionStore(() => make(area, broken));
    await store.restore();
    assert.equal(store.getState().storageError, 'Could not establish a secure session key.');
    assert.equal(store.getState().user, null);
  });
});
