import assert from 'node:assert/strict';
import { it } from 'node:test';
import { adminPermissions, profileResponseSchema } from '@canopy/contract';
import { makeAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

// The profile's adminPermissions drive which admin tabs and buttons the panel shows: they must be exactly
// what the api would allow, so the web never offers a call the api refuses, nor hides one it allows.

const permissionsOf = async (api: TestApi, session: { user: { id: string }; sessionToken: string }) => {
  const res = await api.request('GET', `/users/${session.user.id}/profile`, { token: session.sessionToken });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return profileResponseSchema.parse(res.body).profile.adminPermissions;
};

describeEachDatabase('profile adminPermissions', (api) => {
  it('is empty for a user, and for a former admin who still has permissions stored', async () => {
    const user = await signInRegistered(api());
    assert.deepEqual(await permissionsOf(api(), user), []);

    const former = await signInRegistered(api());
    await makeAdmin(api(), former, ['users:view', 'logs:view']);
    await sql(api(), 'UPDATE users SET is_admin = 0 WHERE id = ?', [former.user.id]);
    assert.deepEqual(await permissionsOf(api(), former), []);
  });

  it("lists an admin's valid permissions only, once each, in the contract's order", async () => {
    const admin = await signInRegistered(api());
    await makeAdmin(api(), admin, ['logs:view', 'no:such', 'users:view', 'logs:view', 'USERS:MANAGE']);
    assert.deepEqual(await permissionsOf(api(), admin), ['users:view', 'logs:view']);

    const none = await signInRegistered(api());
    await makeAdmin(api(), none, []);
    assert.deepEqual(await permissionsOf(api(), none), []);
  });

  it('grants nothing, and does not fail, when the stored list is not a JSON array of strings', async () => {
    const admin = await signInRegistered(api());
    await makeAdmin(api(), admin, []);
    for (const stored of ['users:view,users:manage', '"users:manage"', '{not json', '[1, "logs:view"]']) {
      await sql(api(), 'UPDATE users SET admin_permissions = ? WHERE id = ?', [stored, admin.user.id]);
      const expected = stored.startsWith('[') ? ['logs:view'] : [];
      assert.deepEqual(await permissionsOf(api(), admin), expected, stored);
      const write = await api().request('POST', `/admin/users/${admin.user.id}/set-storage`, {
        token: admin.sessionToken,
        body: { limitMB: 512 },
      });
      assert.equal(write.status, 403, stored);
    }
  });

  it('follows a grant made through the Permissions tab', async () => {
    const sup = await signInRegistered(api());
    await makeAdmin(api(), sup, 'super');
    const admin = await signInRegistered(api());
    await makeAdmin(api(), admin, ['users:view']);
    const res = await api().request('PUT', `/admin/admins/${admin.user.id}/permissions`, {
      token: sup.sessionToken,
      body: { permissions: ['settings:manage', 'codes:view'] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await permissionsOf(api(), admin), ['codes:view', 'settings:manage']);
  });

  it('holds every permission for a super admin, whatever is stored', async () => {
    const sup = await signInRegistered(api());
    await makeAdmin(api(), sup, 'super');
    await sql(api(), "UPDATE users SET admin_permissions = '[]' WHERE id = ?", [sup.user.id]);
    assert.deepEqual(await permissionsOf(api(), sup), [...adminPermissions]);
  });
});
