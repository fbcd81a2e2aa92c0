import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { profileResponseSchema } from '@canopy/contract';
import { ownerWithServer } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';

// With a cluster-wide runtime only the scheduler's leader sees a crash loop happen; another replica learns it from
// the guard's notice (relayed to it like any notice) and its owner's dashboard must say so as the leader's does.

let api: TestApi;
before(async () => {
  api = await startApi('sqlite');
});
after(() => api.close());

it("marks a server held down by another replica's crash-loop guard, from the guard's notice", async () => {
  const owner = await ownerWithServer(api, 'LoopSeen');
  const crashLoop = async () => {
    const res = await api.request('GET', `/users/${owner.user.id}/profile`, { token: owner.sessionToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return profileResponseSchema.parse(res.body).profile.serverCrashLoop;
  };
  assert.equal(await crashLoop(), false);
  // What the relay delivers here when the leader's guard held the server down (emitHere: as it arrives from it).
  api.ctx.bus.emitHere('notice', { name: 'OtherServer', kind: 'crash_loop', audience: [] });
  assert.equal(await crashLoop(), false, "another server's notice says nothing of this one");
  api.ctx.bus.emitHere('notice', { name: 'LoopSeen', kind: 'crash_loop', audience: [owner.user.id] });
  assert.equal(await crashLoop(), true);
});
