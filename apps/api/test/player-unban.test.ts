import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { serverPageMessages as p } from '@canopy/contract';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

describeEachDatabase('banned players: the list shows the ban, and unban lifts it', (api) => {
  let owner: Session;
  let server = '';
  const call = (s: Session, method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
  const bannedNames = async () =>
    (await call(owner, 'GET', '/players')).body.players
      .filter((row: { banned: boolean }) => row.banned)
      .map((row: { name: string }) => row.name);
  const player = {
    pass: 'hunter22',
    email: '',
    home_world: '',
    level: 1,
    gems: 0,
    xp: 0,
    wl_bank_amount: 0,
    dl_bank_amount: 0,
    inventory: [],
  };

  before(async () => {
    owner = await signInRegistered(api());
    server = `unban${api().dialect[0]}${process.pid % 1000}`;
    await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
    await call(owner, 'POST', `/${server}/start`);
    await waitForStatus(api(), server, 'ONLINE');
    assert.equal((await call(owner, 'PUT', '/players/Griefer', player)).status, 200);
    assert.equal((await call(owner, 'PUT', '/players/Friendly', player)).status, 200);
  });

  it('marks banned players in the list', async () => {
    assert.deepEqual(await bannedNames(), []);
    assert.equal((await call(owner, 'DELETE', '/players/griefer')).body.message, p.playerBanned);
    assert.deepEqual(await bannedNames(), ['Griefer']);
  });

  it('refuses unban without players:manage, for an unknown player and for a bad name, changing nothing', async () => {
    const helper = await signInRegistered(api());
    await call(owner, 'POST', '/collaborators', { discordId: helper.user.id, permissions: ['worlds:manage'] });
    const refused = await call(helper, 'POST', '/players/Griefer/unban');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, p.noPermissionPlayers);
    assert.equal((await call(owner, 'POST', '/players/Nobody1/unban')).status, 404);
    assert.equal((await call(owner, 'POST', `/players/${encodeURIComponent('a b')}/unban`)).status, 400);
    const stranger = await signInRegistered(api());
    assert.equal((await call(stranger, 'POST', '/players/Griefer/unban')).status, 404);
    assert.deepEqual(await bannedNames(), ['Griefer']);
  });

  it('lifts a ban for the owner and writes it to the activity log', async () => {
    const res = await call(owner, 'POST', '/players/griefer/unban');
    assert.equal(res.status, 200);
    assert.equal(res.body.message, p.playerUnbanned);
    assert.deepEqual(await bannedNames(), []);
    assert.equal((await call(owner, 'GET', '/players/Griefer')).body.banned, false);
    const logged = await api().ctx.db.all<{ action: string; details: string }>(
      'SELECT action, details FROM activity_logs WHERE details LIKE ? ORDER BY timestamp',
      [`${server}: %`],
    );
    assert.deepEqual(
      logged.filter((l) => /ban/i.test(l.action)).map((l) => [l.action, l.details]),
      [
        ['Player banned', `${server}: griefer`],
        ['Player unbanned', `${server}: griefer`],
      ],
    );
  });
});
