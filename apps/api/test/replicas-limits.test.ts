import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  idempotencyCodes,
  socketCloseCodes,
  socketCloseReasons,
} from '@canopy/contract';
import { MAX_SOCKETS_PER_USER } from '../src/ws/socket-limits.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { signInRegistered } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { type Client, closeAll, connect, type Outcome, served } from './support/limited-socket.ts';

const tooMany = { closed: socketCloseCodes.tooManyConnections, reason: socketCloseReasons.tooManyConnections };

/** A POST with an Idempotency-Key, retried on 409 idempotency_in_flight as the web client does. */
async function postWithKey(api: TestApi, path: string, token: string, key: string, body: unknown) {
  for (let tries = 0; tries < 100; tries++) {
    const res = await fetch(api.url + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        [IDEMPOTENCY_KEY_HEADER]: key,
      },
      body: JSON.stringify(body),
    });
    const answer = { status: res.status, body: await res.json(), replayed: res.headers.get(IDEMPOTENT_REPLAY_HEADER) };
    if (answer.status !== 409 || answer.body.code !== idempotencyCodes.inFlight) return answer;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the key stayed in flight');
}

// Idempotency keys, rate limits and socket caps of several replicas on one PostgreSQL (ADR 0038).
describe('limits shared by two api replicas on one PostgreSQL', { skip: !dialects.includes('postgres') }, () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let a: TestApi;
  let b: TestApi;

  before(async () => {
    pgDb = await createPgDatabase();
    const env = {
      DATABASE_URL: pgDb.url,
      CANOPY_SESSION_SECRET: randomBytes(32).toString('hex'),
      // A limit the test reaches (the harness lifts it), in an hour-long window that the counting below does not
      // straddle; the few sign-ins of these tests stay well under it.
      CANOPY_AUTH_RATE_LIMIT_PER_IP: '40',
      CANOPY_RATE_LIMIT_WINDOW_SECONDS: '3600',
    };
    a = await startApi('postgres', env);
    b = await startApi('postgres', env);
  });
  after(async () => {
    for (const api of [a, b]) await api?.close();
    await pgDb?.drop();
  });

  it('runs a request sent with the same key to both replicas at once once, and answers both alike', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await signInRegistered(a);
      const key = randomUUID();
      const body = { type: 'Suggestion', message: `once ${round}` };
      const answers = await Promise.all([
        postWithKey(a, '/feedback', s.sessionToken, key, body),
        postWithKey(b, '/feedback', s.sessionToken, key, body),
      ]);
      assert.equal(answers[0].status, 200, JSON.stringify(answers[0].body));
      assert.deepEqual(answers[1].status, answers[0].status);
      assert.deepEqual(answers[1].body, answers[0].body);
      // One ran, the other was given its stored answer.
      assert.deepEqual(answers.map((x) => x.replayed === 'true').sort(), [false, true]);
      const rows = await a.ctx.db.all('SELECT id FROM feedback WHERE user_id = ?', [s.user.id]);
      assert.equal(rows.length, 1);
    }
  });

  it('counts a per-IP limit of N across replicas: the N+1th request is refused on either', async () => {
    const n = a.ctx.config.authRateLimit.perIp;
    const windowMs = a.ctx.config.authRateLimit.windowMs;
    // Never start a few seconds before a window ends (fixed windows).
    const left = windowMs - (Date.now() % windowMs);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    for (let i = 0; i < n; i++) {
      const res = await (i % 2 === 0 ? a : b).request('GET', '/auth/config');
      assert.equal(res.status, 200, `request ${i + 1} of ${n}`);
    }
    for (const api of [a, b]) {
      const res = await api.request('GET', '/auth/config');
      assert.equal(res.status, 429);
      assert.equal(res.body.code, 'rate_limited');
    }
  });

  it(`refuses a user's socket past ${MAX_SOCKETS_PER_USER} held across both replicas`, async () => {
    const s = await signInRegistered(a);
    const half = MAX_SOCKETS_PER_USER / 2;
    const clients = [
      ...Array.from({ length: half }, () => connect(a, s.user.id, s.sessionToken)),
      ...Array.from({ length: half }, () => connect(b, s.user.id, s.sessionToken)),
    ];
    assert.deepEqual(
      await Promise.all(clients.map(served)),
      clients.map(() => 'served'),
    );
    // Each replica holds only half its cap, yet the user is at it.
    for (const api of [a, b]) assert.deepEqual(await served(connect(api, s.user.id, s.sessionToken)), tooMany);

    // A slot freed on A is usable on B (the close reaches the database a moment after the client sees it).
    await closeAll(clients.slice(0, 1));
    let result: 'served' | Outcome = tooMany;
    let again: Client | undefined;
    for (let tries = 0; tries < 100 && result !== 'served'; tries++) {
      again = connect(b, s.user.id, s.sessionToken);
      result = await served(again);
      if (result !== 'served') await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(result, 'served');
    assert.deepEqual(await served(connect(a, s.user.id, s.sessionToken)), tooMany);
    await closeAll([...clients.slice(1), ...(again ? [again] : [])]);
  });

  it('stops counting the sockets of a replica whose heartbeat stopped', async () => {
    const s = await signInRegistered(b);
    // A dead replica's rows, last seen a minute ago: they no longer count.
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++)
      await a.ctx.db.run('INSERT INTO live_sockets (id, replica_id, user_id, seen_at) VALUES (?, ?, ?, ?)', [
        randomUUID(),
        'dead-replica',
        s.user.id,
        Date.now() - 60_000,
      ]);
    const c = connect(a, s.user.id, s.sessionToken);
    assert.equal(await served(c), 'served');
    // Fresh rows of a live replica do count.
    await a.ctx.db.run('UPDATE live_sockets SET seen_at = ? WHERE replica_id = ?', [Date.now(), 'dead-replica']);
    assert.deepEqual(await served(connect(b, s.user.id, s.sessionToken)), tooMany);
    await closeAll([c]);
  });
});
