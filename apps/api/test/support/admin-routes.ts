import { type AdminPermission, defaultSettings } from '@canopy/contract';
import { createRedeemCode } from '../../src/redeem/redeem-codes.service.ts';
import { settingsRepo } from '../../src/settings/settings.repo.ts';
import { makeAdmin, ownerWithServer, signIn, signInRegistered } from './factories.ts';
import type { TestApi } from './harness.ts';
import { sql } from './servers.ts';

/** What a route needs: one admin permission, or a super admin. */
export type Need = AdminPermission | 'superAdmin';

/** The state one call acts on: a user id, a server or code name, a feedback id, or settings. */
export interface Target {
  id: string;
  settings?: typeof defaultSettings;
}

/** One admin route of the authorization matrix. */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The url exactly as registered (the guard test matches it against the app's routes). */
  route: string;
  need: Need;
  /** The status an allowed call answers. */
  ok: number;
  /** Fresh state for one call; writes get a new one per allowed caller, since an allowed write consumes it. */
  target?: (api: TestApi) => Promise<Target>;
  path?: (t: Target) => string;
  body?: (t: Target) => unknown;
  /** Writes: reads the state the write changes (an allowed call must change it, a refused one must not). */
  probe?: (api: TestApi, t: Target) => Promise<unknown>;
}

let seq = 0;
/** A name unique across runs in parallel and calls in this run (letters and digits: a valid server name). */
export const uniqueName = (prefix: string) => `${prefix}${process.pid % 10000}x${++seq}`;

const row = (api: TestApi, text: string, params: (string | number)[]) => api.ctx.db.get(text, params);
const count = async (api: TestApi, text: string, params: (string | number)[]) =>
  Number((await api.ctx.db.get<{ n: number | string }>(text, params))?.n);

const registered = async (api: TestApi): Promise<Target> => ({ id: (await signInRegistered(api)).user.id });
const adminTarget = (permissions: readonly string[] | 'super') => async (api: TestApi) => {
  const s = await signIn(api);
  await makeAdmin(api, s, permissions);
  return { id: s.user.id };
};
const userFields = (columns: string) => (api: TestApi, t: Target) =>
  row(api, `SELECT ${columns} FROM users WHERE id = ?`, [t.id]);
const roleFields = userFields('is_admin, is_super_admin, admin_permissions');
const serverTarget = async (api: TestApi): Promise<Target> => {
  const name = uniqueName('mx');
  await ownerWithServer(api, name);
  return { id: name };
};
const feedbackTarget = async (api: TestApi): Promise<Target> => {
  const id = `fb-${uniqueName('m')}`;
  await sql(
    api,
    `INSERT INTO feedback (id, user_id, type, message, submitted_by_username, submitted_by_grow_id, status, created_at)
     VALUES (?, NULL, 'Suggestion', 'matrix', 'matrix', NULL, 'New', ?)`,
    [id, api.clock.now],
  );
  return { id };
};
const read = (route: string, need: Need, extra: Partial<AdminRoute> = {}): AdminRoute => ({
  method: 'GET',
  route,
  need,
  ok: 200,
  ...extra,
});
const userPath = (suffix: string) => (t: Target) => `/admin/users/${t.id}${suffix}`;

/** Every admin route the api registers, with what it needs and how to exercise it (issue 11). */
export const adminRoutes: AdminRoute[] = [
  read('/admin/all-users', 'users:view'),
  read('/admin/users/:discordId', 'users:view', { target: registered, path: userPath('') }),
  {
    method: 'POST',
    route: '/admin/users/:discordId/expiry',
    need: 'users:manage',
    ok: 200,
    target: registered,
    path: userPath('/expiry'),
    body: () => ({ action: 'add', amount: 5 }),
    probe: userFields('server_expires_at, pending_server_ms, server_permanent'),
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/slot',
    need: 'users:manage',
    ok: 200,
    target: registered,
    path: userPath('/slot'),
    body: () => ({ action: 'add', amount: 2 }),
    probe: userFields('available_slot'),
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/set-storage',
    need: 'users:manage',
    ok: 200,
    target: registered,
    path: userPath('/set-storage'),
    body: () => ({ limitMB: 777 }),
    probe: userFields('storage_limit_mb'),
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/set-paid',
    need: 'users:manage',
    ok: 200,
    target: registered,
    path: userPath('/set-paid'),
    body: () => ({ duration: '30d' }),
    probe: userFields('account_type, paid_until'),
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/set-free',
    need: 'users:manage',
    ok: 200,
    target: async (api) => {
      const t = await registered(api);
      await sql(api, "UPDATE users SET account_type = 'Paid', paid_until = ? WHERE id = ?", [
        api.clock.now + 86_400_000,
        t.id,
      ]);
      return t;
    },
    path: userPath('/set-free'),
    probe: userFields('account_type, paid_until'),
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/credit',
    need: 'users:manage',
    ok: 200,
    target: registered,
    path: userPath('/credit'),
    body: () => ({ amount: 50, reason: 'matrix' }),
    probe: async (api, t) => [
      await userFields('credit')(api, t),
      await count(api, 'SELECT COUNT(*) AS n FROM credit_ledger WHERE user_id = ?', [t.id]),
    ],
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/ban',
    need: 'users:manage',
    ok: 200,
    target: registered,
    path: userPath('/ban'),
    body: () => ({ reason: 'Matrix test', duration: '1d' }),
    probe: async (api, t) => [
      await userFields('is_banned, ban_reason, ban_expires')(api, t),
      await count(api, 'SELECT COUNT(*) AS n FROM ban_logs WHERE user_id = ?', [t.id]),
    ],
  },
  {
    method: 'POST',
    route: '/admin/users/:discordId/unban',
    need: 'users:manage',
    ok: 200,
    target: async (api) => {
      const t = await registered(api);
      await sql(api, "UPDATE users SET is_banned = 1, ban_reason = 'matrix', ban_expires = NULL WHERE id = ?", [t.id]);
      return t;
    },
    path: userPath('/unban'),
    probe: userFields('is_banned, ban_reason'),
  },
  {
    method: 'POST',
    route: '/admin/users/bulk-action',
    need: 'users:bulk_actions',
    ok: 200,
    target: registered,
    body: (t) => ({ userIds: [t.id], action: 'addSlots', amount: 3 }),
    probe: userFields('available_slot'),
  },
  read('/admin/ban-logs', 'bans:view'),
  read('/admin/banned-servers', 'bans:view'),
  {
    method: 'POST',
    route: '/admin/banned-servers',
    need: 'bans:manage',
    ok: 200,
    target: async () => ({ id: uniqueName('bn') }),
    body: (t) => ({ serverName: t.id, reason: 'matrix' }),
    probe: (api, t) => count(api, 'SELECT COUNT(*) AS n FROM banned_server_names WHERE name = ?', [t.id]),
  },
  {
    method: 'DELETE',
    route: '/admin/banned-servers/:serverName',
    need: 'bans:manage',
    ok: 200,
    target: async (api) => {
      const id = uniqueName('bn');
      await sql(api, 'INSERT INTO banned_server_names (name_key, name, reason, created_at) VALUES (?, ?, ?, ?)', [
        id.toLowerCase(),
        id,
        'matrix',
        api.clock.now,
      ]);
      return { id };
    },
    path: (t) => `/admin/banned-servers/${t.id}`,
    probe: (api, t) => count(api, 'SELECT COUNT(*) AS n FROM banned_server_names WHERE name = ?', [t.id]),
  },
  read('/admin/all-servers', 'servers:view'),
  {
    // The one row that starts engines: one per allowed caller, stopped when the api closes.
    method: 'POST',
    route: '/admin/servers/:serverName/:action',
    need: 'servers:manage',
    ok: 202,
    target: serverTarget,
    path: (t) => `/admin/servers/${t.id}/start`,
    probe: (api, t) => row(api, 'SELECT desired_state FROM servers WHERE name = ?', [t.id]),
  },
  {
    method: 'DELETE',
    route: '/admin/servers/:serverName',
    need: 'servers:delete',
    ok: 200,
    target: serverTarget,
    path: (t) => `/admin/servers/${t.id}`,
    probe: (api, t) => count(api, 'SELECT COUNT(*) AS n FROM servers WHERE name = ?', [t.id]),
  },
  read('/admin/stats', 'dashboard:view'),
  read('/admin/storage-analytics', 'dashboard:view'),
  read('/admin/logs', 'logs:view'),
  read('/admin/redeem-codes', 'codes:view'),
  {
    method: 'POST',
    route: '/admin/redeem-codes',
    need: 'codes:manage',
    ok: 201,
    target: async () => ({ id: uniqueName('S') }),
    body: (t) => ({ type: 'Slot', amount: 1, stock: 5, customSuffix: t.id }),
    probe: (api) => count(api, 'SELECT COUNT(*) AS n FROM redeem_codes', []),
  },
  {
    method: 'DELETE',
    route: '/admin/redeem-codes/:code',
    need: 'codes:manage',
    ok: 200,
    target: async (api) => {
      const code = uniqueName('MXCODE');
      await createRedeemCode(
        api.ctx.db,
        { type: 'Slot', amount: 1, stock: 5, code, isPublic: false, createdBy: 'matrix' },
        api.clock.now,
      );
      return { id: code };
    },
    path: (t) => `/admin/redeem-codes/${t.id}`,
    probe: (api, t) => count(api, 'SELECT COUNT(*) AS n FROM redeem_codes WHERE code = ?', [t.id]),
  },
  read('/admin/feedback', 'feedback:view'),
  {
    method: 'PUT',
    route: '/admin/feedback/:id/status',
    need: 'feedback:manage',
    ok: 200,
    target: feedbackTarget,
    path: (t) => `/admin/feedback/${t.id}/status`,
    body: () => ({ status: 'Resolved' }),
    probe: (api, t) => row(api, 'SELECT status FROM feedback WHERE id = ?', [t.id]),
  },
  {
    method: 'DELETE',
    route: '/admin/feedback/:id',
    need: 'feedback:manage',
    ok: 200,
    target: feedbackTarget,
    path: (t) => `/admin/feedback/${t.id}`,
    probe: (api, t) => count(api, 'SELECT COUNT(*) AS n FROM feedback WHERE id = ?', [t.id]),
  },
  read('/admin/admins', 'superAdmin'),
  {
    method: 'POST',
    route: '/admin/admins',
    need: 'superAdmin',
    ok: 200,
    target: async (api) => ({ id: (await signIn(api)).user.id }),
    body: (t) => ({ discordId: t.id }),
    probe: roleFields,
  },
  {
    method: 'DELETE',
    route: '/admin/admins/:discordId',
    need: 'superAdmin',
    ok: 200,
    target: adminTarget(['users:view']),
    path: (t) => `/admin/admins/${t.id}`,
    probe: roleFields,
  },
  {
    method: 'POST',
    route: '/admin/superadmins',
    need: 'superAdmin',
    ok: 200,
    target: adminTarget(['users:view']),
    body: (t) => ({ discordId: t.id }),
    probe: roleFields,
  },
  {
    method: 'DELETE',
    route: '/admin/superadmins/:discordId',
    need: 'superAdmin',
    ok: 200,
    target: adminTarget('super'),
    path: (t) => `/admin/superadmins/${t.id}`,
    probe: roleFields,
  },
  read('/admin/admins/:discordId/permissions', 'superAdmin', {
    target: adminTarget(['users:view']),
    path: (t) => `/admin/admins/${t.id}/permissions`,
  }),
  {
    method: 'PUT',
    route: '/admin/admins/:discordId/permissions',
    need: 'superAdmin',
    ok: 200,
    target: adminTarget(['users:view']),
    path: (t) => `/admin/admins/${t.id}/permissions`,
    body: () => ({ permissions: ['logs:view'] }),
    probe: roleFields,
  },
  read('/admin/settings', 'settings:view'),
  {
    method: 'POST',
    route: '/admin/settings',
    need: 'settings:manage',
    ok: 200,
    // Flips a switch that no admin route reads (maintenance would answer 503 to the plain user).
    target: async (api) => ({ id: 'settings', settings: await settingsRepo.load(api.ctx.db) }),
    body: (t) => {
      const now = t.settings ?? defaultSettings;
      return { ...now, disableShop: !now.disableShop };
    },
    probe: (api) => settingsRepo.load(api.ctx.db),
  },
];
