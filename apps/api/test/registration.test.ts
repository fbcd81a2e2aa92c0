import assert from 'node:assert/strict';
import { it } from 'node:test';
import { messages } from '@canopy/contract';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';

const register = (token: string, discordId: string, growId: string) => ({
  token,
  body: { discordId, discordUsername: 'someone', growId },
});

describeEachDatabase('registration', (api) => {
  it('registers a GrowID and the profile then answers 200', async () => {
    const s = await signIn(api());
    const res = await api().request('POST', '/register', register(s.sessionToken, s.user.id, 'Planter42'));
    assert.equal(res.status, 201);
    const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
    assert.equal(profile.status, 200);
    assert.equal(profile.body.profile.growId, 'Planter42');
    assert.ok(profile.body.profile.registeredAt);
  });

  it('refuses invalid GrowIDs with the spec message', async () => {
    const s = await signIn(api());
    for (const bad of ['ab', 'a'.repeat(21), 'has space', 'dash-ed', 'émile', '']) {
      const res = await api().request('POST', '/register', register(s.sessionToken, s.user.id, bad));
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error, messages.growIdInvalid);
    }
    const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
    assert.equal(profile.status, 404, 'nothing was registered');
  });

  it('refuses a GrowID taken in another case', async () => {
    const first = await signIn(api());
    await api().request('POST', '/register', register(first.sessionToken, first.user.id, 'TreeHugger'));
    const second = await signIn(api());
    const res = await api().request('POST', '/register', register(second.sessionToken, second.user.id, 'treehugger'));
    assert.equal(res.status, 409);
    assert.equal(res.body.error, messages.growIdTaken);
    const profile = await api().request('GET', `/users/${second.user.id}/profile`, { token: second.sessionToken });
    assert.equal(profile.status, 404);
  });

  it("refuses registering someone else's discordId", async () => {
    const victim = await signIn(api());
    const attacker = await signIn(api());
    const res = await api().request('POST', '/register', register(attacker.sessionToken, victim.user.id, 'Stolen1'));
    assert.equal(res.status, 403);
    assert.equal(res.body.error, messages.registerForOther);
    const profile = await api().request('GET', `/users/${victim.user.id}/profile`, { token: victim.sessionToken });
    assert.equal(profile.status, 404);
  });

  it('refuses a second registration: the GrowID never changes', async () => {
    const s = await signInRegistered(api());
    const res = await api().request('POST', '/register', register(s.sessionToken, s.user.id, 'Another1'));
    assert.equal(res.status, 409);
    assert.equal(res.body.error, messages.alreadyRegistered);
    const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
    assert.equal(profile.body.profile.growId, s.growId);
  });

  it('requires a session', async () => {
    const res = await api().request('POST', '/register', {
      body: { discordId: '1', discordUsername: 'x', growId: 'abc' },
    });
    assert.equal(res.status, 401);
  });

  it('lets one of two simultaneous claims of a name win', async () => {
    const a = await signIn(api());
    const b = await signIn(api());
    const results = await Promise.all([
      api().request('POST', '/register', register(a.sessionToken, a.user.id, 'RaceName')),
      api().request('POST', '/register', register(b.sessionToken, b.user.id, 'racename')),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409]);
  });
});
