import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { SessionSigner } from '../src/auth/tokens.ts';
import { devUser, issueDevToken, readDevToken } from '../src/dev-idp/dev-token.ts';

describe('session tokens', () => {
  const signer = new SessionSigner('x'.repeat(40), 900);
  const now = Date.UTC(2026, 0, 1);

  it('round-trips claims until they expire', () => {
    const token = signer.sign('42', 'fam', now);
    const claims = signer.verify(token, now + 899_000);
    assert.ok(claims && claims !== 'expired');
    assert.equal(claims.sub, '42');
    assert.equal(claims.fam, 'fam');
    assert.equal(signer.verify(token, now + 900_000), 'expired');
  });

  it('rejects tampering and other keys', () => {
    const token = signer.sign('42', 'fam', now);
    const [v, , sig] = token.split('.');
    const claims = Buffer.from(JSON.stringify({ sub: '1', fam: 'fam', iat: 0, exp: 9e9 })).toString('base64url');
    assert.equal(signer.verify(`${v}.${claims}.${sig}`, now), null);
    assert.equal(new SessionSigner('y'.repeat(40), 900).verify(token, now), null);
    assert.equal(signer.verify('v1.only-two', now), null);
    assert.equal(signer.verify('', now), null);
  });

  it('refuses a genuine signature over claims without a family', () => {
    const claims = Buffer.from(JSON.stringify({ sub: '42', iat: 0, exp: 9e9 })).toString('base64url');
    const body = `v1.${claims}`;
    // Signed with the real key, so only the claims check can refuse it.
    const sig = createHmac('sha256', 'x'.repeat(40)).update(body).digest('base64url');
    assert.equal(signer.verify(`${body}.${sig}`, now), null);
  });

  it('keeps its key across calls, and a rotated secret brings its own key', () => {
    // Each signer imports its secret once (a cached KeyObject); rotating CANOPY_SESSION_SECRET builds a new
    // signer, which must answer only under the new key, for signatures and for sealed values alike.
    const before = new SessionSigner('a'.repeat(40), 900);
    const old = before.sign('42', 'fam', now);
    const sealed = before.seal('secret', 'ctx');
    for (let i = 0; i < 3; i++) assert.ok(before.verify(old, now), 'the cached key verifies every time');

    const after = new SessionSigner('b'.repeat(40), 900);
    assert.equal(after.verify(old, now), null);
    assert.equal(after.unseal(sealed, 'ctx'), null);
    const fresh = after.sign('42', 'fam', now);
    assert.ok(after.verify(fresh, now));
    assert.equal(before.verify(fresh, now), null, 'the old signer kept its own key');
    assert.equal(before.unseal(sealed, 'ctx'), 'secret');
  });

  it('remembers checked tokens but still decides expiry and forgery on every call', () => {
    const cached = new SessionSigner('c'.repeat(40), 900);
    const token = cached.sign('42', 'fam', now);
    const first = cached.verify(token, now);
    assert.ok(first && first !== 'expired');
    assert.equal(cached.verify(token, now + 1000), first, 'the second call answers from the cache');
    assert.equal(cached.verify(token, now + 900_000), 'expired');
    assert.equal(cached.verify(token, now + 900_000), 'expired', 'still expired once dropped from the cache');
    const [v, body, sig] = cached.sign('42', 'fam', now).split('.');
    assert.equal(cached.verify(`${v}.${body}.${sig?.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`, now), null);
    assert.throws(() => {
      (first as { sub: string }).sub = '1';
    }, TypeError);
  });

  it('keeps at most its limit of checked tokens, the oldest leaving first', () => {
    const small = new SessionSigner('d'.repeat(40), 900, 2);
    const tokens = ['1', '2', '3'].map((sub) => small.sign(sub, 'fam', now));
    for (const t of tokens) assert.ok(small.verify(t, now));
    const verified = (small as unknown as { verified: Map<string, unknown> }).verified;
    assert.deepEqual([...verified.keys()], tokens.slice(1));
    // An evicted token is checked again, not refused.
    const again = small.verify(tokens[0] ?? '', now);
    assert.ok(again && again !== 'expired' && again.sub === '1');
  });
});

describe('development identity provider tokens', () => {
  it('gives a username a stable Discord-like identity', () => {
    const a = devUser('alice');
    assert.deepEqual(devUser('Alice').id, a.id);
    assert.match(a.id, /^\d{18}$/);
    assert.match(a.discriminator, /^\d{4}$/);
    assert.notEqual(devUser('bob').id, a.id);
  });

  it('accepts its own tokens only, until they expire', () => {
    const now = Date.UTC(2026, 0, 1);
    const token = issueDevToken('key', devUser('alice'), now);
    assert.equal(readDevToken('key', token, now + 1000)?.username, 'alice');
    assert.equal(readDevToken('other', token, now), null);
    assert.equal(readDevToken('key', token, now + 8 * 24 * 3600 * 1000), null);
    assert.equal(readDevToken('key', `${token}x`, now), null);
  });
});

describe('the stored session key', () => {
  it('is made once, kept, and refused when it is too short', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadSessionSecret } = await import('../src/auth/secret.ts');
    const dir = mkdtempSync(join(tmpdir(), 'canopy-secret-'));
    const first = loadSessionSecret(undefined, dir);
    assert.ok(first.length >= 32);
    assert.equal(loadSessionSecret(undefined, dir), first);
    writeFileSync(join(dir, 'session-secret'), '');
    assert.throws(() => loadSessionSecret(undefined, dir), /shorter than 32 characters/);
  });
});

describe('sealed values', () => {
  const signer = new SessionSigner('x'.repeat(40), 900);

  it('opens only with the same key and context, and hides the plain text', () => {
    const sealed = signer.seal('refresh-secret', 'row-1');
    assert.ok(!sealed.includes('refresh-secret'));
    assert.notEqual(signer.seal('refresh-secret', 'row-1'), sealed, 'a fresh nonce each time');
    assert.equal(signer.unseal(sealed, 'row-1'), 'refresh-secret');
    assert.equal(signer.unseal(sealed, 'row-2'), null);
    assert.equal(new SessionSigner('y'.repeat(40), 900).unseal(sealed, 'row-1'), null);
    const [v, iv, data, tag] = sealed.split('.');
    const flipped = Buffer.from(data ?? '', 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    assert.equal(signer.unseal([v, iv, flipped.toString('base64url'), tag].join('.'), 'row-1'), null);
    assert.equal(signer.unseal('garbage', 'row-1'), null);
  });
});
