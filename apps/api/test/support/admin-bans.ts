import assert from 'node:assert/strict';
import { makeAdmin, signInRegistered } from './factories.ts';
import type { TestApi } from './harness.ts';
import { sql } from './servers.ts';

export type Session = Awaited<ReturnType<typeof signInRegistered>>;

/** The callers of the bans tests' access matrix. */
export interface BanCast {
  plain: Session;
  /** An admin holding none of the permissions these routes need. */
  noPerm: Session;
  usersView: Session;
  bansView: Session;
  /** users:manage, users:bulk_actions, bans:view and bans:manage. */
  manager: Session;
  sup: Session;
}

/** Signs the cast in (registered, so their GrowIDs are the names bans record). */
export async function banCast(api: TestApi): Promise<BanCast> {
  const [plain, noPerm, usersView, bansView, manager, sup] = (await Promise.all(
    Array.from({ length: 6 }, () => signInRegistered(api)),
  )) as [Session, Session, Session, Session, Session, Session];
  await makeAdmin(api, noPerm, ['dashboard:view']);
  await makeAdmin(api, usersView, ['users:view']);
  await makeAdmin(api, bansView, ['bans:view']);
  await makeAdmin(api, manager, ['users:manage', 'users:bulk_actions', 'bans:view', 'bans:manage']);
  await sql(api, 'UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = ?', [sup.user.id]);
  return { plain, noPerm, usersView, bansView, manager, sup };
}

/** Signed out 401, plain user 403, admin without the permission 403, and `viewOnly` (for writes) 403. */
export async function refusedToAllButHolders(
  api: TestApi,
  cast: BanCast,
  method: string,
  path: string,
  body: unknown,
  viewOnly: Session | null,
) {
  assert.equal((await api.request(method, path, { body })).status, 401);
  for (const s of [cast.plain, cast.noPerm, ...(viewOnly ? [viewOnly] : [])]) {
    const res = await api.request(method, path, { body, token: s.sessionToken });
    assert.equal(res.status, 403, `${method} ${path} by ${s.user.username}`);
    assert.ok(typeof res.body.error === 'string');
  }
}

/** The users row's ban fields. */
export const banRow = (api: TestApi, id: string) =>
  api.ctx.db.get<{
    is_banned: number;
    ban_reason: string | null;
    banned_by: string | null;
    ban_expires: number | null;
  }>('SELECT is_banned, ban_reason, banned_by, ban_expires FROM users WHERE id = ?', [id]);
