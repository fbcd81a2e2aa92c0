import assert from 'node:assert/strict';
import { it } from 'node:test';
import { IDEMPOTENT_REPLAY_HEADER, idempotencyCodes } from '@canopy/contract';
import { IDEMPOTENCY_TTL_MS } from '../src/http/idempotency.ts';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

let n = 0;
const uniqueName = () => `Idem${process.pid % 1000}x${++n}`;

type Session = Awaited<ReturnType<typeof signInRegistered>>;

/** POST /users/{id}/server with an Idempotency-Key, keeping the replay header. */
async function create(api: TestApi, s: Session, key: string | undefined, serverName: string) {
  const res = await fetch(`${api.url}/users/${s.user.id}/server`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${s.sessionToken}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify({ serverName }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    replayed: res.headers.get(IDEMPOTENT_REPLAY_HEADER),
  };
}

const serversOf = async (api: TestApi, userId: string) =>
  (await api.ctx.db.all('SELECT id FROM servers WHERE owner_id = ?', [userId])).length;

describeEachDatabase('idempotency keys', (api) => {
  it('answers a repeated create with the stored answer and makes one server', async () => {
    const s = await signInRegistered(api());
    const name = uniqueName();
    const first = await create(api(), s, 'key-create-1', name);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.replayed, null);
    const again = await create(api(), s, 'key-create-1', name);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.replayed, 'true');
    assert.equal(await serversOf(api(), s.user.id), 1);
    // Without the key the same request is a new action (and the user already owns a server).
    assert.equal((await create(api(), s, undefined, name)).status, 409);
  });

  it('runs concurrent requests with one key once', async () => {
    const s = await signInRegistered(api());
    const name = uniqueName();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(api(), s, 'key-concurrent', name)));
    const created = answers.filter((a) => a.status === 201);
    const inFlight = answers.filter((a) => a.status === 409 && a.body.code === idempotencyCodes.inFlight);
    assert.equal(created.length + inFlight.length, answers.length, JSON.stringify(answers.map((a) => a.body)));
    assert.ok(created.length >= 1);
    for (const a of created) assert.deepEqual(a.body, created[0]?.body);
    assert.equal(created.filter((a) => a.replayed === null).length, 1, 'exactly one of them ran');
    assert.equal(await serversOf(api(), s.user.id), 1);
    // Once it has answered, every repeat gets that answer.
    const after = await create(api(), s, 'key-concurrent', name);
    assert.equal(after.status, 201);
    assert.deepEqual(after.body, created[0]?.body);
  });

  it('refuses a key reused for a different request with 422 and changes nothing', async () => {
    const s = await signInRegistered(api());
    const first = await create(api(), s, 'key-reused', uniqueName());
    assert.equal(first.status, 201);
    const other = await create(api(), s, 'key-reused', uniqueName());
    assert.equal(other.status, 422);
    assert.equal(other.body.code, idempotencyCodes.keyReused);
    assert.match(other.body.error, /already used for a different request/);
    const otherPath = await api().request('DELETE', `/users/${s.user.id}/server`, {
      token: s.sessionToken,
      headers: { 'idempotency-key': 'key-reused' },
    });
    assert.equal(otherPath.status, 422);
    assert.equal(await serversOf(api(), s.user.id), 1);
  });

  it('keeps keys per user: another user with the same key runs their own request', async () => {
    const a = await signInRegistered(api());
    const b = await signInRegistered(api());
    const nameA = uniqueName();
    const nameB = uniqueName();
    const ra = await create(api(), a, 'shared-key', nameA);
    const rb = await create(api(), b, 'shared-key', nameB);
    assert.equal(ra.status, 201);
    assert.equal(rb.status, 201);
    assert.equal(rb.replayed, null);
    assert.notDeepEqual(rb.body, ra.body);
    assert.equal(await serversOf(api(), b.user.id), 1);
  });

  it('stores refusals (4xx) but not server errors (5xx), which run again on retry', async () => {
    const s = await signInRegistered(api());
    const bad = await create(api(), s, 'key-4xx', '');
    assert.equal(bad.status, 400);
    const badAgain = await create(api(), s, 'key-4xx', '');
    assert.equal(badAgain.status, 400);
    assert.equal(badAgain.replayed, 'true');

    const name = uniqueName();
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('maintenance', 'true')");
    let during: Awaited<ReturnType<typeof create>>;
    try {
      during = await create(api(), s, 'key-5xx', name);
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'maintenance'");
    }
    assert.equal(during.status, 503);
    const retried = await create(api(), s, 'key-5xx', name);
    assert.equal(retried.status, 201);
    assert.equal(retried.replayed, null);
  });

  it('forgets answers after their time to live and prunes them', async () => {
    const s = await signInRegistered(api());
    const first = await create(api(), s, 'key-ttl', uniqueName());
    assert.equal(first.status, 201);
    const kept = await api().ctx.db.all('SELECT idem_key FROM idempotency_keys WHERE user_id = ?', [s.user.id]);
    assert.equal(kept.length, 1);
    const start = api().clock.now;
    try {
      api().clock.now = start + IDEMPOTENCY_TTL_MS + 60_000;
      const refreshed = await api().request('POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
      assert.equal(refreshed.status, 200);
      // The old key is free again: a new request with it runs (and is refused: one server per user).
      const later = await create(api(), { ...s, sessionToken: refreshed.body.sessionToken }, 'key-ttl', uniqueName());
      assert.equal(later.status, 409);
      assert.equal(later.replayed, null);
      const old = await api().ctx.db.all('SELECT idem_key FROM idempotency_keys WHERE created_at < ?', [
        api().clock.now - IDEMPOTENCY_TTL_MS,
      ]);
      assert.equal(old.length, 0, 'expired answers are deleted');
    } finally {
      api().clock.now = start;
    }
  });

  it('refuses a malformed key and ignores keys on public routes', async () => {
    const s = await signInRegistered(api());
    const bad = await api().request('POST', `/users/${s.user.id}/server`, {
      token: s.sessionToken,
      body: { serverName: uniqueName() },
      headers: { 'idempotency-key': 'x'.repeat(201) },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, idempotencyCodes.invalidKey);
    assert.equal(await serversOf(api(), s.user.id), 0);

    // Sign-in answers hold tokens: they are never stored, whatever the client sends.
    const fresh = await signIn(api());
    const login = await api().request('POST', '/auth/login', {
      body: { accessToken: fresh.accessToken },
      headers: { 'idempotency-key': 'login-key' },
    });
    assert.equal(login.status, 200);
    const stored = await api().ctx.db.all('SELECT idem_key FROM idempotency_keys WHERE idem_key = ?', ['login-key']);
    assert.equal(stored.length, 0);
  });
});
