import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

// Every server-scoped route × every kind of caller: the status the api must answer, and for refusals of
// mutating routes, proof that nothing changed.

type Need = 'server:actions' | 'worlds:manage' | 'players:manage' | 'config:manage' | 'backups:manage' | 'owner';
interface Row {
  method: string;
  path: (id: string, server: string) => string;
  need: Need;
  body?: unknown;
  mutates: boolean;
}

const PLAYER = {
  pass: 'secret-pass',
  email: 'p@example.test',
  home_world: 'START',
  level: 3,
  gems: 10,
  xp: 0,
  wl_bank_amount: 0,
  dl_bank_amount: 0,
  inventory: [[2, 5]],
};
const NOBODY = '123456789012345678'; // a well-formed Discord id nobody has

const rows: Row[] = [
  { method: 'POST', path: (id, s) => `/users/${id}/server/${s}/start`, need: 'server:actions', mutates: true },
  { method: 'DELETE', path: (id) => `/users/${id}/server`, need: 'owner', mutates: true },
  { method: 'GET', path: (id) => `/users/${id}/server/worlds`, need: 'worlds:manage', mutates: false },
  { method: 'GET', path: (id) => `/users/${id}/server/worlds/START`, need: 'worlds:manage', mutates: false },
  { method: 'PUT', path: (id) => `/users/${id}/server/worlds/START`, need: 'worlds:manage', mutates: true },
  { method: 'DELETE', path: (id) => `/users/${id}/server/worlds/NOSUCHWORLD`, need: 'worlds:manage', mutates: true },
  { method: 'GET', path: (id) => `/users/${id}/server/players`, need: 'players:manage', mutates: false },
  { method: 'GET', path: (id) => `/users/${id}/server/players/matrixman`, need: 'players:manage', mutates: false },
  {
    method: 'PUT',
    path: (id) => `/users/${id}/server/players/matrixman`,
    need: 'players:manage',
    body: { ...PLAYER, pass: '' },
    mutates: true,
  },
  { method: 'DELETE', path: (id) => `/users/${id}/server/players/nosuchplayer`, need: 'players:manage', mutates: true },
  { method: 'GET', path: (id) => `/users/${id}/server/collaborators`, need: 'owner', mutates: false },
  {
    method: 'GET',
    path: (id) => `/users/${id}/server/collaborators/validate/${NOBODY}`,
    need: 'owner',
    mutates: false,
  },
  {
    method: 'POST',
    path: (id) => `/users/${id}/server/collaborators`,
    need: 'owner',
    body: { discordId: NOBODY, permissions: ['console:use'] },
    mutates: true,
  },
  {
    method: 'PUT',
    path: (id) => `/users/${id}/server/collaborators/${NOBODY}`,
    need: 'owner',
    body: { permissions: ['console:use'] },
    mutates: true,
  },
  { method: 'DELETE', path: (id) => `/users/${id}/server/collaborators/${NOBODY}`, need: 'owner', mutates: true },
  { method: 'GET', path: (id) => `/users/${id}/server/creator-list`, need: 'config:manage', mutates: false },
  {
    method: 'POST',
    path: (id) => `/users/${id}/server/creator-list`,
    need: 'config:manage',
    body: { growId: 'MatrixMaker' },
    mutates: true,
  },
  {
    method: 'DELETE',
    path: (id) => `/users/${id}/server/creator-list/NoSuchMaker`,
    need: 'config:manage',
    mutates: true,
  },
  {
    method: 'POST',
    path: (id) => `/users/${id}/server/farm-delay`,
    need: 'config:manage',
    body: { amount: 1500 },
    mutates: true,
  },
  { method: 'GET', path: (id) => `/users/${id}/server/newbie-kit`, need: 'config:manage', mutates: false },
  {
    method: 'PUT',
    path: (id) => `/users/${id}/server/newbie-kit`,
    need: 'config:manage',
    body: { ITEMS: [] },
    mutates: true,
  },
  { method: 'GET', path: (id) => `/users/${id}/server/item-config`, need: 'config:manage', mutates: false },
  {
    method: 'PUT',
    path: (id) => `/users/${id}/server/item-config`,
    need: 'config:manage',
    body: { items: [] },
    mutates: true,
  },
  {
    method: 'POST',
    path: (id) => `/users/${id}/server/custom-item`,
    need: 'config:manage',
    // Refused as a texture (400) once past the permission layer: nothing is written either way.
    body: { itemName: 'Matrix', rarity: 1, rttexBase64: 'AAAA', properties: {} },
    mutates: true,
  },
  // Last: a restore stops the server (the rows above need it running). collaboratorWithout holds only
  // backups:manage, so here the two collaborators swap roles (see expected).
  { method: 'GET', path: (id) => `/users/${id}/server/backup`, need: 'backups:manage', mutates: false },
  { method: 'POST', path: (id) => `/users/${id}/server/backup`, need: 'backups:manage', mutates: true },
  { method: 'POST', path: (id) => `/users/${id}/server/backup/restore`, need: 'backups:manage', mutates: true },
  { method: 'DELETE', path: (id) => `/users/${id}/server/backup`, need: 'backups:manage', mutates: true },
];

// Codes of the permission layer; anything else means the caller got past it.
const REFUSALS = new Set([
  'unauthorized',
  'not_your_account',
  'no_server',
  'banned',
  'missing_permission',
  'owner_only',
]);

describeEachDatabase('authorization matrix of server routes', (api) => {
  const who: Record<string, { id: string; token: string | undefined }> = {};
  let server = '';
  let worldBody: unknown;

  const snapshot = async () => {
    const owner = who.owner;
    const get = async (path: string) => (await api().request('GET', path, { token: owner?.token })).body;
    return JSON.stringify([
      await get(`/users/${owner?.id}/server/worlds`),
      await get(`/users/${owner?.id}/server/worlds/START`),
      await get(`/users/${owner?.id}/server/players`),
      await get(`/users/${owner?.id}/server/players/matrixman`),
      await get(`/users/${owner?.id}/server/collaborators`),
      await get(`/users/${owner?.id}/server/creator-list`),
      await get(`/users/${owner?.id}/server/newbie-kit`),
      await get(`/users/${owner?.id}/server/item-config`),
      await get(`/users/${owner?.id}/server/backup`),
      (await get(`/users/${owner?.id}/profile`)).profile?.server?.config,
      (await api().request('GET', '/status')).body,
    ]);
  };

  before(async () => {
    const t: TestApi = api();
    const owner = await signInRegistered(t);
    server = `matrix${t.dialect[0]}${process.pid % 1000}`;
    await t.request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
    await t.request('POST', `/users/${owner.user.id}/server/${server}/start`, { token: owner.sessionToken });
    await waitForStatus(t, server, 'ONLINE');
    await t.request('PUT', `/users/${owner.user.id}/server/players/matrixman`, {
      token: owner.sessionToken,
      body: PLAYER,
    });
    worldBody = (await t.request('GET', `/users/${owner.user.id}/server/worlds/START`, { token: owner.sessionToken }))
      .body;

    const collabAll = await signInRegistered(t);
    const collabNone = await signInRegistered(t);
    for (const [c, permissions] of [
      [collabAll, ['server:actions', 'worlds:manage', 'players:manage', 'console:use', 'config:manage']],
      [collabNone, ['backups:manage']],
    ] as const) {
      const res = await t.request('POST', `/users/${owner.user.id}/server/collaborators`, {
        token: owner.sessionToken,
        body: { discordId: c.user.id, permissions },
      });
      assert.equal(res.status, 201);
    }
    const stranger = await signInRegistered(t);
    const banned = await signInRegistered(t);
    await t.request('POST', `/users/${banned.user.id}/server`, {
      token: banned.sessionToken,
      body: { serverName: `${server}b` },
    });
    await sql(t, "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [banned.user.id]);
    const admin = await signIn(t, { id: '166666666666666666' });
    await sql(t, "UPDATE users SET is_admin = 1, grow_id = 'MatrixAdmin', grow_id_key = 'matrixadmin' WHERE id = ?", [
      admin.user.id,
    ]);

    who.owner = { id: owner.user.id, token: owner.sessionToken };
    who.anonymous = { id: owner.user.id, token: undefined };
    who.stranger = { id: stranger.user.id, token: stranger.sessionToken };
    who.strangerAsOwner = { id: owner.user.id, token: stranger.sessionToken };
    who.collaboratorWith = { id: collabAll.user.id, token: collabAll.sessionToken };
    who.collaboratorWithout = { id: collabNone.user.id, token: collabNone.sessionToken };
    who.bannedOwner = { id: banned.user.id, token: banned.sessionToken };
    who.admin = { id: admin.user.id, token: admin.sessionToken };
  });

  /** The expected answer: a refusal (status and code) or 'allowed'. */
  const expected = (actor: string, need: Need): { status: number; code: string } | 'allowed' => {
    switch (actor) {
      case 'anonymous':
        return { status: 401, code: 'unauthorized' };
      case 'owner':
        return 'allowed';
      case 'stranger':
      case 'admin':
        return { status: 404, code: 'no_server' };
      case 'strangerAsOwner':
        return { status: 403, code: 'not_your_account' };
      case 'collaboratorWith':
        if (need === 'backups:manage') return { status: 403, code: 'missing_permission' };
        return need === 'owner' ? { status: 403, code: 'owner_only' } : 'allowed';
      case 'collaboratorWithout':
        if (need === 'backups:manage') return 'allowed';
        return { status: 403, code: need === 'owner' ? 'owner_only' : 'missing_permission' };
      default:
        return { status: 403, code: 'banned' };
    }
  };

  for (const row of rows) {
    it(`${row.method} ${row.path('{id}', '{server}')}`, async () => {
      const actors = ['anonymous', 'stranger', 'strangerAsOwner', 'admin', 'collaboratorWithout', 'bannedOwner'];
      actors.push('collaboratorWith', 'owner');
      for (const actor of actors) {
        const caller = who[actor];
        if (!caller) throw new Error(actor);
        const want = expected(actor, row.need);
        // The owner deleting the server would end the matrix; its success is covered in servers.test.ts.
        if (
          want === 'allowed' &&
          row.need === 'owner' &&
          row.method === 'DELETE' &&
          !row.path('x', '').includes('collab')
        )
          continue;
        const body = row.path('x', '').endsWith('/worlds/START') && row.method === 'PUT' ? worldBody : row.body;
        const before = want !== 'allowed' && row.mutates ? await snapshot() : '';
        const res = await api().request(row.method, row.path(caller.id, server), { token: caller.token, body });
        if (want === 'allowed') {
          assert.ok(
            res.status < 500 && !REFUSALS.has(res.body?.code),
            `${actor}: expected to pass the permission check, got ${res.status} ${JSON.stringify(res.body)}`,
          );
          // A configuration save restarts a running server; the next refusal's snapshot needs it settled.
          if (res.body?.applied === 'restarting') await waitForStatus(api(), server, 'ONLINE');
        } else {
          assert.equal(res.status, want.status, `${actor}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.code, want.code, actor);
          if (row.mutates) assert.equal(await snapshot(), before, `${actor}: a refused request changed something`);
        }
      }
    });
  }
});
