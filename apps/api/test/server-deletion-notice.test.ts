import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hostingMessages, profileResponseSchema } from '@canopy/contract';
import { createRedeemCode } from '../src/redeem/redeem-codes.service.ts';
import { enforceServerTime } from '../src/scheduler/server-time.ts';
import { ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

const DAY = 24 * 3600 * 1000;
type Session = Awaited<ReturnType<typeof signInRegistered>>;

/** The profile as the dashboard reads it, with a token valid at the test clock's time (it may have moved). */
async function profileOf(api: TestApi, who: Session) {
  const token = api.ctx.signer.sign(who.user.id, 'deletion-notice', api.clock.now);
  const res = await api.request('GET', `/users/${who.user.id}/profile`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return profileResponseSchema.parse(res.body).profile;
}

// The dashboard tells an owner that their server was deleted, also when they were away (issue 21, item 13):
// the profile keeps the last deletion, who made it and when, whichever of the three paths deleted it.
describeEachDatabase('the last server deletion in the profile', (api) => {
  const name = (tag: string) => `del${tag}${api().dialect[0]}${process.pid % 1000}`;

  it('is null before any deletion and while the user has a server', async () => {
    const fresh = await signInRegistered(api());
    assert.equal((await profileOf(api(), fresh)).lastServerDeletion, null);
    const owner = await ownerWithServer(api(), name('h'));
    assert.equal((await profileOf(api(), owner)).lastServerDeletion, null);
  });

  it("records the owner's own delete, and hides it again once a new server exists", async () => {
    const server = name('o');
    const owner = await ownerWithServer(api(), server);
    const res = await api().request('DELETE', `/users/${owner.user.id}/server`, { token: owner.sessionToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await profileOf(api(), owner)).lastServerDeletion, {
      name: server,
      at: new Date(api().clock.now).toISOString(),
      by: 'owner',
    });
    const again = await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: `${server}n` },
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal((await profileOf(api(), owner)).lastServerDeletion, null);
  });

  it("records an admin's delete as the admin's", async () => {
    const server = name('a');
    const owner = await ownerWithServer(api(), server);
    const admin = await signInRegistered(api());
    await sql(api(), 'UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = ?', [admin.user.id]);
    const res = await api().request('DELETE', `/admin/servers/${server}`, { token: admin.sessionToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await profileOf(api(), owner)).lastServerDeletion, {
      name: server,
      at: new Date(api().clock.now).toISOString(),
      by: 'admin',
    });
    // The admin's own profile is not touched.
    assert.equal((await profileOf(api(), admin)).lastServerDeletion, null);
  });

  // Issue 21 item 13: the time ran out an hour before an admin deleted the server. A grace period only delays
  // deleting a server, so without one the profile shows no grace (the dashboard counted one down for nothing),
  // creating stays refused until time is added, and time added then waits for the next server.
  it('shows no grace period once an admin deleted the server of a run-out account, until new time is added', async () => {
    const server = name('g');
    const owner = await ownerWithServer(api(), server);
    const admin = await signInRegistered(api());
    await sql(api(), 'UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = ?', [admin.user.id]);
    const expired = api().clock.now - 3600 * 1000;
    await sql(api(), 'UPDATE users SET server_expires_at = ?, server_permanent = 0 WHERE id = ?', [
      expired,
      owner.user.id,
    ]);
    const inGrace = await profileOf(api(), owner);
    assert.match(inGrace.estimatedExpiry, /^Grace period ends /, 'with the server, the grace period runs');
    assert.notEqual(inGrace.serverTime.graceEndsAt, null);

    const res = await api().request('DELETE', `/admin/servers/${server}`, { token: admin.sessionToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const gone = await profileOf(api(), owner);
    assert.equal(gone.estimatedExpiry, new Date(expired).toISOString(), "the past expiry: the spec's 'Expired'");
    assert.deepEqual(gone.serverTime, {
      permanent: false,
      expiresAt: new Date(expired).toISOString(),
      graceEndsAt: null,
      pendingMs: 0,
    });
    const create = (serverName: string) =>
      api().request('POST', `/users/${owner.user.id}/server`, { token: owner.sessionToken, body: { serverName } });
    const refused = await create(`${server}n`);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.error, hostingMessages.serverTimeOverCreate);

    // A server time code (the way left while the shop is disabled) banks its days for the next server.
    const { code } = await createRedeemCode(
      api().ctx.db,
      {
        type: 'ServerTime',
        amount: 2,
        stock: 1,
        isPublic: false,
        createdBy: 'test',
        code: `G${process.pid}${name('')}`,
      },
      api().clock.now,
    );
    const redeemed = await api().request('POST', `/users/${owner.user.id}/redeem`, {
      token: owner.sessionToken,
      body: { code },
    });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.deepEqual((await profileOf(api(), owner)).serverTime, {
      permanent: false,
      expiresAt: null,
      graceEndsAt: null,
      pendingMs: 2 * DAY,
    });
    const made = await create(`${server}n`);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const running = await profileOf(api(), owner);
    assert.equal(running.serverTime.expiresAt, new Date(api().clock.now + 2 * DAY).toISOString());
    assert.equal(running.serverTime.graceEndsAt, new Date(api().clock.now + 5 * DAY).toISOString());
  });

  it('records the scheduler deleting a server whose grace period ended as expiry', async () => {
    const server = name('e');
    const owner = await ownerWithServer(api(), server);
    const t0 = api().clock.now;
    try {
      await sql(api(), 'UPDATE users SET server_expires_at = ?, server_permanent = 0 WHERE id = ?', [
        t0 - 4 * DAY,
        owner.user.id,
      ]);
      await enforceServerTime(api().ctx);
      api().clock.now = t0 + 1000;
      assert.deepEqual((await profileOf(api(), owner)).lastServerDeletion, {
        name: server,
        at: new Date(t0).toISOString(),
        by: 'expiry',
      });
    } finally {
      api().clock.now = t0;
    }
  });
});
