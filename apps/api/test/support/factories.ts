import type { DiscordUser } from '@canopy/contract';
import type { TestApi } from './harness.ts';

let counter = 0;

/** A Discord identity with a unique id, and an access token the fake Discord accepts for it. */
export function buildDiscordUser(api: TestApi, overrides: Partial<DiscordUser> = {}) {
  counter += 1;
  const user: DiscordUser = {
    id: String(400000000000000000n + BigInt(process.pid) * 1000n + BigInt(counter)),
    username: `user${counter}`,
    discriminator: String(1000 + counter),
    avatar: null,
    email: `user${counter}@example.test`,
    ...overrides,
  };
  const accessToken = `token-${user.id}-${counter}`;
  api.discord.grant(accessToken, user);
  return { user, accessToken };
}

/** Signs a new user in through POST /auth/login and returns their tokens. */
export async function signIn(api: TestApi, overrides: Partial<DiscordUser> = {}) {
  const { user, accessToken } = buildDiscordUser(api, overrides);
  const res = await api.request('POST', '/auth/login', { body: { accessToken } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    user,
    accessToken,
    sessionToken: res.body.sessionToken as string,
    refreshToken: res.body.refreshToken as string,
  };
}

/** Signs a new user in and registers a GrowID for them. */
export async function signInRegistered(api: TestApi, overrides: Partial<DiscordUser> = {}) {
  const session = await signIn(api, overrides);
  const growId = `G${session.user.id.slice(-10)}`;
  const res = await api.request('POST', '/register', {
    token: session.sessionToken,
    body: { discordId: session.user.id, discordUsername: session.user.username, growId },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...session, growId };
}

/** A registered user who owns a server named `serverName`, created over the api from a slot (never started). */
export async function ownerWithServer(api: TestApi, serverName: string) {
  const session = await signInRegistered(api);
  await api.ctx.db.run('UPDATE users SET available_slot = 1 WHERE id = ?', [session.user.id]);
  const res = await api.request('POST', `/users/${session.user.id}/server`, {
    token: session.sessionToken,
    body: { serverName },
  });
  if (res.status !== 201) throw new Error(`server creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return session;
}

/** Makes `userId` a collaborator on the server `ownerId` owns, with these permissions. */
export async function addCollaborator(api: TestApi, ownerId: string, userId: string, permissions: string[] = []) {
  const server = await api.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [ownerId]);
  if (!server) throw new Error(`${ownerId} owns no server`);
  await api.ctx.db.run('INSERT INTO collaborators (server_id, user_id, permissions, created_at) VALUES (?, ?, ?, ?)', [
    server.id,
    userId,
    JSON.stringify(permissions),
    api.clock.now,
  ]);
}

/** Makes a signed-in user an admin holding exactly these permission strings, or a super admin ('super'). */
export async function makeAdmin(
  api: TestApi,
  session: { user: { id: string } },
  permissions: readonly string[] | 'super',
) {
  if (permissions === 'super')
    await api.ctx.db.run('UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = ?', [session.user.id]);
  else
    await api.ctx.db.run('UPDATE users SET is_admin = 1, admin_permissions = ? WHERE id = ?', [
      JSON.stringify(permissions),
      session.user.id,
    ]);
}

/** A newly signed-in admin holding exactly these permission strings, or a super admin ('super'). */
export async function signInAdmin(api: TestApi, permissions: readonly string[] | 'super') {
  const session = await signIn(api);
  await makeAdmin(api, session, permissions);
  return session;
}
