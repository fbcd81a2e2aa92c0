import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { serverPageMessages as p } from '@canopy/contract';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

describeEachDatabase('worlds, players and collaborators', (api) => {
  let owner: Session;
  let server = '';
  const call = (s: Session, method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });

  before(async () => {
    owner = await signInRegistered(api());
    server = `data${api().dialect[0]}${process.pid % 1000}`;
    await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
  });

  it('answers with the spec message while the server is not online', async () => {
    const worlds = await call(owner, 'GET', '/worlds');
    assert.equal(worlds.status, 409);
    assert.equal(worlds.body.error, p.worldsOffline);
    const players = await call(owner, 'GET', '/players');
    assert.equal(players.body.error, p.playersOffline);
    await call(owner, 'POST', `/${server}/start`);
    const starting = await call(owner, 'GET', '/worlds');
    assert.equal(starting.body.error, p.serverStarting);
    await waitForStatus(api(), server, 'ONLINE');
  });

  it('reads, edits, locks and deletes worlds in the engine', async () => {
    const list = await call(owner, 'GET', '/worlds');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.worlds.map((w: { name: string }) => w.name),
      ['START'],
    );
    const world = (await call(owner, 'GET', '/worlds/start')).body;
    const saved = await call(owner, 'PUT', '/worlds/START', { ...world, music_bpm: 140, d_weather: 6 });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.message, p.worldSaved);
    assert.equal((await call(owner, 'GET', '/worlds/START')).body.music_bpm, 140);
    assert.equal((await call(owner, 'GET', '/worlds')).body.worlds[0].locked, true);

    const bad = await call(owner, 'PUT', '/worlds/START', {
      ...saved.body,
      ...world,
      version: saved.body.version,
      r: 300,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'Red must be between 0 and 255.', 'the text of the contract, as the editor shows it');
    assert.equal((await call(owner, 'GET', '/worlds/START')).body.r, world.r, 'nothing half-written');

    // A new world: no version to name (the read world's would be refused: SPARE was never read).
    const spare = await call(owner, 'PUT', '/worlds/SPARE', {
      ...world,
      name: undefined,
      id: undefined,
      version: undefined,
    });
    assert.equal(spare.status, 200, JSON.stringify(spare.body));
    const del = await call(owner, 'DELETE', '/worlds/spare');
    assert.equal(del.body.message, p.worldDeleted);
    assert.equal((await call(owner, 'GET', '/worlds/SPARE')).status, 404);
  });

  it('creates, edits and bans players; passwords never come back', async () => {
    const body = {
      pass: 'hunter22',
      email: 'grow@example.test',
      home_world: 'start',
      level: 5,
      gems: 1200,
      xp: 10,
      wl_bank_amount: 1,
      dl_bank_amount: 0,
      'Role.VIP': true,
      inventory: [[2, 10]],
    };
    assert.equal((await call(owner, 'PUT', '/players/Farmer', body)).status, 200);
    const got = (await call(owner, 'GET', '/players/farmer')).body;
    assert.equal(got.pass, '');
    assert.equal(got.home_world, 'START');
    assert.equal(got['Role.VIP'], true);
    const list = (await call(owner, 'GET', '/players')).body;
    assert.deepEqual(list.players[0].roles, ['VIP']);
    const bad = await call(owner, 'PUT', '/players/Farmer', { ...got, gems: -5 });
    assert.equal(bad.status, 400);
    assert.equal((await call(owner, 'GET', '/players/farmer')).body.gems, 1200);
    const ban = await call(owner, 'DELETE', '/players/farmer');
    assert.equal(ban.body.message, p.playerBanned);
    assert.equal((await call(owner, 'GET', '/players/farmer')).body.banned, true);
  });

  it('validates, adds, edits and removes collaborators', async () => {
    const friend = await signInRegistered(api());
    const check = (id: string) => call(owner, 'GET', `/collaborators/validate/${id}`);
    assert.equal((await check('12ab')).body.status, 'invalid_id');
    assert.equal((await check('123456789012345678')).body.status, 'not_found');
    assert.equal((await check(owner.user.id)).body.status, 'conflict');
    const ok = await check(friend.user.id);
    assert.equal(ok.body.status, 'valid');
    assert.equal(ok.body.user.GrowID, friend.growId);

    const refused = await call(owner, 'POST', '/collaborators', {
      discordId: '123456789012345678',
      permissions: ['console:use'],
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /^Please enter a valid and eligible Discord ID\./);
    const added = await call(owner, 'POST', '/collaborators', {
      discordId: friend.user.id,
      permissions: ['worlds:manage'],
    });
    assert.equal(added.status, 201);
    assert.equal((await check(friend.user.id)).body.status, 'conflict');

    const profile = await api().request('GET', `/users/${friend.user.id}/profile`, { token: friend.sessionToken });
    assert.equal(profile.body.profile.isCollaborator, true);
    assert.equal(profile.body.profile.serverOwned, server);
    assert.deepEqual(profile.body.profile.collaboratorPermissions, ['worlds:manage']);
    assert.equal((await call(friend, 'GET', '/worlds')).status, 200);
    assert.equal((await call(friend, 'GET', '/players')).body.error, p.noPermissionPlayers);
    assert.equal((await call(friend, 'GET', '/collaborators')).body.error, p.onlyOwnerCollaborators);

    await call(owner, 'PUT', `/collaborators/${friend.user.id}`, { permissions: ['players:manage'] });
    assert.equal((await call(friend, 'GET', '/players')).status, 200);
    assert.equal((await call(friend, 'GET', '/worlds')).body.error, p.noPermissionWorlds);
    const list = (await call(owner, 'GET', '/collaborators')).body;
    assert.deepEqual(
      list.map((c: { DiscordID: string; Permissions: string[] }) => [c.DiscordID, c.Permissions]),
      [[friend.user.id, ['players:manage']]],
    );
    assert.equal((await call(owner, 'DELETE', `/collaborators/${friend.user.id}`)).body.message, p.collaboratorRemoved);
    assert.equal((await call(friend, 'GET', '/players')).status, 404);
    const noServer = await signInRegistered(api());
    assert.equal((await call(noServer, 'GET', '/collaborators')).body.error, p.needServerForCollaborators);
  });
});
