import assert from 'node:assert/strict';
import { it } from 'node:test';
import { profileResponseSchema } from '@canopy/contract';
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
