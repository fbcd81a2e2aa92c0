import assert from 'node:assert/strict';
import { it } from 'node:test';
import { defaultSettings, messages, profileResponseSchema } from '@canopy/contract';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';

const ADMIN = '188888888888888888';

describeEachDatabase(
  'profile and maintenance',
  (api) => {
    it('answers the registered user with the profile and default settings', async () => {
      const s = await signInRegistered(api(), { username: 'leafy', discriminator: '1234' });
      const res = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(res.status, 200);
      const body = profileResponseSchema.parse(res.body);
      assert.equal(body.profile.username, 'leafy');
      assert.equal(body.profile.accountType, 'Free');
      assert.equal(body.profile.serverOwned, 'No Server');
      assert.equal(body.profile.storageLimitMB, 256);
      assert.deepEqual(body.settings, defaultSettings);
    });

    it('answers 404 before registration', async () => {
      const s = await signIn(api());
      const res = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      assert.equal(res.status, 404);
      assert.equal(res.body.error, messages.notRegistered);
    });

    it("refuses reading another user's profile, but an admin may", async () => {
      const a = await signInRegistered(api());
      const b = await signInRegistered(api());
      const res = await api().request('GET', `/users/${b.user.id}/profile`, { token: a.sessionToken });
      assert.equal(res.status, 403);
      assert.equal(res.body.error, messages.forbiddenProfile);
      const admin = await signInRegistered(api(), { id: ADMIN });
      const asAdmin = await api().request('GET', `/users/${b.user.id}/profile`, { token: admin.sessionToken });
      assert.equal(asAdmin.status, 200);
      assert.equal(asAdmin.body.profile.id, b.user.id);
    });

    it('answers 503 in maintenance to non-admins only, and only admins switch it', async () => {
      const user = await signInRegistered(api());
      const admin = await signIn(api(), { id: ADMIN });
      const denied = await api().request('POST', '/admin/settings', {
        token: user.sessionToken,
        body: { ...defaultSettings, maintenance: true },
      });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.error, messages.adminOnly);
      assert.equal(
        (await api().request('GET', `/users/${user.user.id}/profile`, { token: user.sessionToken })).status,
        200,
      );

      const on = await api().request('POST', '/admin/settings', {
        token: admin.sessionToken,
        body: { ...defaultSettings, maintenance: true },
      });
      assert.equal(on.status, 200);
      try {
        const res = await api().request('GET', `/users/${user.user.id}/profile`, { token: user.sessionToken });
        assert.equal(res.status, 503);
        assert.match(res.body.error, /maintenance/i);
        const adminProfile = await api().request('GET', `/users/${ADMIN}/profile`, { token: admin.sessionToken });
        assert.equal(adminProfile.status, 200);
        assert.equal(adminProfile.body.settings.maintenance, true);
      } finally {
        await api().request('POST', '/admin/settings', { token: admin.sessionToken, body: defaultSettings });
      }
    });

    it('refuses a malformed settings body and changes nothing', async () => {
      const admin = await signIn(api(), { id: ADMIN });
      const bad = await api().request('POST', '/admin/settings', {
        token: admin.sessionToken,
        body: { ...defaultSettings, maintenance: 'yes' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /maintenance/);
      const partial = await api().request('POST', '/admin/settings', {
        token: admin.sessionToken,
        body: { maintenance: true },
      });
      assert.equal(partial.status, 400);
      const now = await api().request('GET', '/admin/settings', { token: admin.sessionToken });
      const { version: _, ...settings } = now.body;
      assert.deepEqual(settings, defaultSettings);
    });
  },
  { CANOPY_SUPER_ADMINS: ADMIN },
);
