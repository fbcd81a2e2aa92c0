import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverPageMessages, socketCloseCodes, socketCloseReasons } from '@canopy/contract';
import pg from 'pg';
import { TokenBucket } from '../src/ws/rate-limit.ts';
import {
  CLEAR_REFUSALS_BURST,
  defaultMaxSockets,
  MAX_PENDING_PER_ADDRESS,
  MAX_SOCKETS_PER_USER,
  maxInboundConnections,
  openFileLimit,
  SocketAdmission,
} from '../src/ws/socket-limits.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { type Client, closeAll, connect, type Outcome, served } from './support/limited-socket.ts';

async function until(check: () => boolean, what: string, ms = 20000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const errors = (c: Client) => c.messages.flatMap((m) => (m.type === 'error' ? [m.payload] : []));

describeEachDatabase('socket limits', (api) => {
  it(`refuses a user's socket past ${MAX_SOCKETS_PER_USER} with 4029, and admits new ones after some close`, async () => {
    const s = await signInRegistered(api());
    const extra = 4;
    const clients = Array.from({ length: MAX_SOCKETS_PER_USER + extra }, () =>
      connect(api(), s.user.id, s.sessionToken),
    );
    const results = await Promise.all(clients.map(served));
    const refused = results.filter((r) => r !== 'served');
    assert.equal(results.length - refused.length, MAX_SOCKETS_PER_USER);
    assert.deepEqual(
      refused,
      Array.from({ length: extra }, () => ({
        closed: socketCloseCodes.tooManyConnections,
        reason: socketCloseReasons.tooManyConnections,
      })),
    );

    // Another user is not affected by this user's sockets.
    const other = await signInRegistered(api());
    const theirs = connect(api(), other.user.id, other.sessionToken);
    assert.equal(await served(theirs), 'served');

    const open = clients.filter((_, i) => results[i] === 'served');
    await closeAll(open.slice(0, 3));
    // The api sees the closes a moment after the client does; a retry covers that gap.
    const again: Client[] = [];
    for (let i = 0; i < 3; i++) {
      let result: 'served' | Outcome = { closed: 0, reason: '' };
      for (let tries = 0; tries < 50 && result !== 'served'; tries++) {
        const c = connect(api(), s.user.id, s.sessionToken);
        result = await served(c);
        if (result === 'served') again.push(c);
        else await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(result, 'served', 'a freed slot is usable again');
    }
    const over = connect(api(), s.user.id, s.sessionToken);
    assert.deepEqual(await served(over), {
      closed: socketCloseCodes.tooManyConnections,
      reason: socketCloseReasons.tooManyConnections,
    });
    // Without a valid token for this id nobody learns that the user is at the cap: the usual 1008.
    const stranger = await connect(api(), s.user.id, other.sessionToken).outcome;
    assert.equal('closed' in stranger && stranger.closed, socketCloseCodes.policyViolation);
    await closeAll([...open.slice(3), ...again, theirs]);
  });

  it(`answers a flood past the cap with HTTP 429 before the handshake, after ${CLEAR_REFUSALS_BURST} clear refusals`, async () => {
    const s = await signInRegistered(api());
    const held = Array.from({ length: MAX_SOCKETS_PER_USER }, () => connect(api(), s.user.id, s.sessionToken));
    assert.ok((await Promise.all(held.map(served))).every((r) => r === 'served'));
    const outcomes: Outcome[] = [];
    for (let i = 0; i < CLEAR_REFUSALS_BURST + 10; i++)
      outcomes.push(await connect(api(), s.user.id, s.sessionToken).outcome);
    const clear = { closed: socketCloseCodes.tooManyConnections, reason: socketCloseReasons.tooManyConnections };
    const told = outcomes.filter((o) => 'closed' in o);
    assert.ok(told.length >= CLEAR_REFUSALS_BURST && told.length < outcomes.length, JSON.stringify(outcomes));
    for (const o of told) assert.deepEqual(o, clear);
    for (const o of outcomes.filter((o) => 'refused' in o)) assert.deepEqual(o, { refused: 429 });
    // Someone else's token still learns nothing: the usual 1008 after the handshake, never the 429.
    const other = await signInRegistered(api());
    const stranger = await connect(api(), s.user.id, other.sessionToken).outcome;
    assert.equal('closed' in stranger && stranger.closed, socketCloseCodes.policyViolation);
    await closeAll(held);
  });

  it('rate-limits console commands per user across all of their sockets, also after reconnecting', async () => {
    const s = await signInRegistered(api());
    const sockets = Array.from({ length: 5 }, () => connect(api(), s.user.id, s.sessionToken));
    for (const c of sockets) assert.equal(await served(c), 'served');
    // The test clock stands still: the bucket holds exactly its burst of 10 and does not refill.
    for (const c of sockets)
      for (let i = 0; i < 4; i++)
        c.ws.send(JSON.stringify({ type: 'console_command', payload: { command: `say ${i}` } }));
    const answers = () => sockets.flatMap((c) => errors(c).slice(1)); // the first answer was the subscribe
    await until(() => answers().length === 20, 'an answer to every command');
    const limited = answers().filter((e) => e.code === 'rate_limited');
    assert.equal(limited.length, 10, 'ten commands in all, not ten per socket');
    assert.ok(limited.every((e) => e.message === serverPageMessages.commandRateLimited));
    // The others reached the access check, which refuses: this user has no server.
    assert.ok(answers().every((e) => e.code === 'rate_limited' || e.code === 'console_denied'));

    // Closing every socket and opening a new one does not buy a fresh bucket.
    await closeAll(sockets);
    const fresh = connect(api(), s.user.id, s.sessionToken);
    assert.equal(await served(fresh), 'served');
    fresh.ws.send(JSON.stringify({ type: 'console_command', payload: { command: 'say again' } }));
    await until(() => errors(fresh).length === 2, 'the answer');
    assert.equal(errors(fresh)[1]?.code, 'rate_limited');

    // Time refills it.
    api().clock.now += 1000;
    fresh.ws.send(JSON.stringify({ type: 'console_command', payload: { command: 'say later' } }));
    await until(() => errors(fresh).length === 3, 'the answer');
    assert.equal(errors(fresh)[2]?.code, 'console_denied');
    await closeAll([fresh]);
  });

  it('bounds handshakes still authenticating per address (429), and closes them when authentication hangs', async (t) => {
    // Only PostgreSQL can be made to hang from outside: a lock on users holds every token check.
    const url = api().ctx.config.databaseUrl;
    if (!url) return t.skip('needs PostgreSQL');
    const s = await signInRegistered(api());
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      const stuck = Array.from({ length: MAX_PENDING_PER_ADDRESS }, () => connect(api(), s.user.id, s.sessionToken));
      await Promise.all(stuck.map((c) => new Promise((resolve) => c.ws.once('open', resolve))));
      assert.deepEqual(await connect(api(), s.user.id, s.sessionToken).outcome, { refused: 429 });
      // Nothing authenticates while the lock holds: the api gives up on them after HANDSHAKE_TIMEOUT_MS, or the
      // database's statement timeout (as long) ends the token check first. Either way: try again later.
      for (const outcome of await Promise.all(stuck.map((c) => c.outcome))) {
        assert.equal((outcome as { closed?: number }).closed, socketCloseCodes.tryAgainLater, JSON.stringify(outcome));
        assert.ok(
          [socketCloseReasons.handshakeTimeout, socketCloseReasons.databaseUnavailable].includes(
            (outcome as { reason: string }).reason as never,
          ),
          JSON.stringify(outcome),
        );
      }
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const after = connect(api(), s.user.id, s.sessionToken);
    assert.equal(await served(after), 'served');
    await closeAll([after]);
  });
});

describeEachDatabase(
  'socket limits: the total',
  (api) => {
    it('refuses upgrades with 503 once the api holds CANOPY_MAX_SOCKETS sockets, and admits again after closes', async () => {
      const a = await signInRegistered(api());
      const b = await signInRegistered(api());
      const mine = Array.from({ length: 6 }, () => connect(api(), a.user.id, a.sessionToken));
      for (const c of mine) assert.equal(await served(c), 'served');
      // Refused before any authentication: even a garbage token gets the same answer.
      assert.deepEqual(await connect(api(), b.user.id, b.sessionToken).outcome, { refused: 503 });
      assert.deepEqual(await connect(api(), b.user.id, 'garbage').outcome, { refused: 503 });

      await closeAll(mine.slice(0, 1));
      let result: 'served' | Outcome = { refused: 0 };
      let theirs: Client | null = null;
      for (let tries = 0; tries < 50 && result !== 'served'; tries++) {
        theirs = connect(api(), b.user.id, b.sessionToken);
        result = await served(theirs);
        if (result !== 'served') await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(result, 'served');
      await closeAll([...mine.slice(1), ...(theirs ? [theirs] : [])]);
    });
  },
  { CANOPY_MAX_SOCKETS: '6' },
);

describe('socket limit bookkeeping', () => {
  it('reads the soft descriptor limit from /proc/self/limits', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             127368               127368               processes ',
      'Max open files            20000                524288               files     ',
    ].join('\n');
    assert.equal(
      openFileLimit(() => limits),
      20000,
    );
    assert.equal(
      openFileLimit(() => limits.replace('20000 ', 'unlimited ')),
      Number.MAX_SAFE_INTEGER,
    );
    assert.equal(
      openFileLimit(() => {
        throw new Error('ENOENT');
      }),
      null,
    );
    assert.equal(
      openFileLimit(() => 'nothing useful'),
      null,
    );
  });

  it('keeps half the descriptors for sockets and a quarter out of every client’s reach', () => {
    assert.equal(defaultMaxSockets(20000), 10000);
    assert.equal(defaultMaxSockets(null), 512, 'an unknown limit is taken as 1024');
    assert.equal(maxInboundConnections(20000, 10000), 15000);
    assert.equal(maxInboundConnections(20000, 19990), 20054, 'an explicit socket cap still leaves HTTP room');
  });

  it('bounds pending handshakes per address and all sockets together', () => {
    const admission = new SocketAdmission(5, 2);
    assert.equal(admission.admit('10.0.0.1'), null);
    assert.equal(admission.admit('10.0.0.1'), null);
    assert.equal(admission.admit('10.0.0.1'), 'too_many_pending');
    assert.equal(admission.admit('10.0.0.2'), null, 'another address has its own count');
    admission.settle('10.0.0.1');
    assert.equal(admission.admit('10.0.0.1'), null, 'an authenticated socket no longer counts as pending');
    admission.settle('10.0.0.1');
    admission.settle('10.0.0.1');
    assert.equal(admission.admit('10.0.0.3'), null);
    assert.equal(admission.size, 5);
    assert.equal(admission.admit('10.0.0.4'), 'busy');
    admission.release();
    assert.equal(admission.admit('10.0.0.4'), null);
  });

  it("a user's command bucket is full again only after it has refilled", () => {
    const clock = { now: 0 };
    const bucket = new TokenBucket(10, 5, () => clock.now);
    for (let i = 0; i < 10; i++) assert.equal(bucket.take(), true);
    assert.equal(bucket.take(), false);
    assert.equal(bucket.isFull(), false);
    clock.now += 1000;
    assert.equal(bucket.isFull(), false);
    clock.now += 1000;
    assert.equal(bucket.isFull(), true);
  });
});
