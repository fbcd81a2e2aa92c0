import type { AdminPermission, Settings } from '@canopy/contract';
import { makeAdmin, ownerWithServer, signIn, signInRegistered } from './factories.ts';
import type { TestApi } from './harness.ts';
import { sql } from './servers.ts';

// The pieces of the admin routes table (admin-routes.ts): its row type, and makers of targets and probes.

/** What a route needs: one admin permission, or a super admin. */
export type Need = AdminPermission | 'superAdmin';

/** The state one call acts on: a user id, a server or code name, a feedback id, or settings. */
export interface Target {
  id: string;
  settings?: Settings;
}

/** One admin route of the authorization matrix. */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The url exactly as registered (the guard test matches it against the app's routes). */
  route: string;
  need: Need;
  /** Permissions needed besides `need`, and the refusal's text without them (the bulk action: users:manage). */
  also?: { permissions: AdminPermission[]; error: string };
  /** The status an allowed call answers. */
  ok: number;
  /** Fresh state for one call; writes get a new one per allowed caller, since an allowed write consumes it. */
  target?: (api: TestApi) => Promise<Target>;
  path?: (t: Target) => string;
  body?: (t: Target) => unknown;
  /** An allowed call answers a file (CSV), not JSON: its body is read as text (refusals are still JSON). */
  answersText?: true;
  /** Writes: reads the state the write changes (an allowed call must change it, a refused one must not). */
  probe?: (api: TestApi, t: Target) => Promise<unknown>;
}

let seq = 0;
/** A name unique across runs in parallel and calls in this run (letters and digits: a valid server name). */
export const uniqueName = (prefix: string) => `${prefix}${process.pid % 10000}x${++seq}`;

export const row = (api: TestApi, text: string, params: (string | number)[]) => api.ctx.db.get(text, params);
export const count = async (api: TestApi, text: string, params: (string | number)[]) =>
  Number((await api.ctx.db.get<{ n: number | string }>(text, params))?.n);

export const registered = async (api: TestApi): Promise<Target> => ({ id: (await signInRegistered(api)).user.id });
export const adminTarget = (permissions: readonly string[] | 'super') => async (api: TestApi) => {
  const s = await signIn(api);
  await makeAdmin(api, s, permissions);
  return { id: s.user.id };
};
export const userFields = (columns: string) => (api: TestApi, t: Target) =>
  row(api, `SELECT ${columns} FROM users WHERE id = ?`, [t.id]);
export const roleFields = userFields('is_admin, is_super_admin, admin_permissions');
export const serverTarget = async (api: TestApi): Promise<Target> => {
  const name = uniqueName('mx');
  await ownerWithServer(api, name);
  return { id: name };
};
export const feedbackTarget = async (api: TestApi): Promise<Target> => {
  const id = `fb-${uniqueName('m')}`;
  await sql(
    api,
    `INSERT INTO feedback (id, user_id, type, message, submitted_by_username, submitted_by_grow_id, status, created_at)
     VALUES (?, NULL, 'Suggestion', 'matrix', 'matrix', NULL, 'New', ?)`,
    [id, api.clock.now],
  );
  return { id };
};
export const read = (route: string, need: Need, extra: Partial<AdminRoute> = {}): AdminRoute => ({
  method: 'GET',
  route,
  need,
  ok: 200,
  ...extra,
});
export const userPath = (suffix: string) => (t: Target) => `/admin/users/${t.id}${suffix}`;
