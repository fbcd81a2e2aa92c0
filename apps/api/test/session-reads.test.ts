import assert from 'node:assert/strict';
import { it } from 'node:test';
import { profileResponseSchema } from '@canopy/contract';
import { addCollaborator, makeAdmin, ownerWithServer, signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';

// Authentication reads the user and its session family in one statement, and the profile reads its server in
// one: these tests pin that every write is seen by the very next request and that the joined reads keep the
// answers the separate reads gave.
describeEachDatabase('authenticated reads', (api) => {
  const profile = (s: { user: { id: string }; sessionToken: string }) =>
    api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });

  it('a revoked family ends its sessions at the next request, and only that family', async () => {
    const s = await signInRegistered(api());
    const other = await api().request('POST', '/auth/login', { body: { accessToken: s.accessToken } });
    assert.equal(other.status, 200);
    assert.equal((await profile(s)).status, 200);

    const out = await api().request('POST', '/auth/logout', { body: { refreshToken: s.refreshToken } });
    assert.equal(out.status, 200);
    const after = await profile(s);
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'invalid_token');
    // The same user's other sign-in is another family: it goes on.
    assert.equal((await profile({ user: s.user, sessionToken: other.body.sessionToken })).status, 200);
  });

  it('a ban is seen by the next request, and so is the unban', async () => {
    const s = await signInRegistered(api());
    const admin = await signIn(api());
    await makeAdmin(api(), admin, ['users:manage']);
    assert.equal((await profile(s)).body.profile.isBanned, false);

    const ban = await api().request('POST', `/admin/users/${s.user.id}/ban`, {
      token: admin.sessionToken,
      body: { reason: 'griefing', duration: '1d' },
    });
    assert.equal(ban.status, 200, JSON.stringify(ban.body));
    const banned = profileResponseSchema.parse((await profile(s)).body);
    assert.equal(banned.profile.isBanned, true);
    assert.equal(banned.profile.banInfo?.reason, 'griefing');

    const unban = await api().request('POST', `/admin/users/${s.user.id}/unban`, { token: admin.sessionToken });
    assert.equal(unban.status, 200, JSON.stringify(unban.body));
    assert.equal((await profile(s)).body.profile.isBanned, false);
  });

  it('a permission granted or taken applies to the next request', async () => {
    const s = await signIn(api());
    const list = () => api().request('GET', '/admin/all-users', { token: s.sessionToken });
    assert.equal((await list()).status, 403);
    await makeAdmin(api(), s, ['users:view']);
    assert.equal((await list()).status, 200);
    await makeAdmin(api(), s, []);
    assert.equal((await list()).status, 403);
  });

  it('registration shows at the next request, and a deleted account ends its sessions', async () => {
    const s = await signIn(api());
    assert.equal((await profile(s)).status, 404);
    const reg = await api().request('POST', '/register', {
      token: s.sessionToken,
      body: { discordId: s.user.id, discordUsername: s.user.username, growId: `R${s.user.id.slice(-9)}` },
    });
    assert.equal(reg.status, 201);
    assert.equal((await profile(s)).status, 200);

    await api().ctx.db.run('DELETE FROM refresh_tokens WHERE user_id = ?', [s.user.id]);
    await api().ctx.db.run('DELETE FROM users WHERE id = ?', [s.user.id]);
    assert.equal((await profile(s)).status, 401);
  });

  it("the profile shows the user's own server, else the collaboration with the owner's figures, else none", async () => {
    const owner = await ownerWithServer(api(), `Own${Date.now() % 100000}`);
    const helper = await signInRegistered(api());
    const loner = await signInRegistered(api());
    await addCollaborator(api(), owner.user.id, helper.user.id, ['worlds:manage']);
    await api().ctx.db.run('UPDATE users SET storage_used_bytes = ? WHERE id = ?', [5 * 1024 * 1024, owner.user.id]);

    const own = profileResponseSchema.parse((await profile(owner)).body).profile;
    const server = await api().ctx.db.get<{ name: string }>('SELECT name FROM servers WHERE owner_id = ?', [
      owner.user.id,
    ]);
    assert.equal(own.serverOwned, server?.name);
    assert.equal(own.isCollaborator, false);
    assert.deepEqual(own.collaboratorPermissions, []);

    const shared = profileResponseSchema.parse((await profile(helper)).body).profile;
    assert.equal(shared.serverOwned, server?.name);
    assert.equal(shared.isCollaborator, true);
    assert.deepEqual(shared.collaboratorPermissions, ['worlds:manage']);
    assert.equal(shared.storageUsedMB, 5, "a collaborator sees the owner's storage");

    const none = profileResponseSchema.parse((await profile(loner)).body).profile;
    assert.equal(none.serverOwned, 'No Server');
    assert.equal(none.isCollaborator, false);
    assert.equal(none.server, null);
  });

  it('an owner who is also listed as a collaborator elsewhere is shown their own server', async () => {
    const a = await ownerWithServer(api(), `Alpha${Date.now() % 100000}`);
    const b = await ownerWithServer(api(), `Beta${Date.now() % 100000}`);
    // Not reachable through the api (an owner cannot be invited), but the read must still prefer the owned one.
    await addCollaborator(api(), a.user.id, b.user.id, ['worlds:manage']);
    const mine = await api().ctx.db.get<{ name: string }>('SELECT name FROM servers WHERE owner_id = ?', [b.user.id]);
    const shown = profileResponseSchema.parse((await profile(b)).body).profile;
    assert.equal(shown.serverOwned, mine?.name);
    assert.equal(shown.isCollaborator, false);
  });
});
