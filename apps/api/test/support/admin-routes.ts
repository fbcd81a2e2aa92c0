import { defaultSettings } from '@canopy/contract';
import { creditPacksRepo } from '../../src/payments/credit-packs.repo.ts';
import { createRedeemCode } from '../../src/redeem/redeem-codes.service.ts';
import { settingsRepo } from '../../src/settings/settings.repo.ts';
import {
  type AdminRoute,
  adminTarget,
  count,
  feedbackTarget,
  read,
  roleFields,
  row,
  serverTarget,
  uniqueName,
} from './admin-route-kit.ts';
import { adminUserRoutes } from './admin-routes-users.ts';
import { signIn } from './factories.ts';
import { sql } from './servers.ts';

export type { AdminRoute, Need, Target } from './admin-route-kit.ts';

/** Every admin route the api registers, with what it needs and how to exercise it (issue 11). */
export const adminRoutes: AdminRoute[] = [
  ...adminUserRoutes,
  read('/admin/history', 'dashboard:view'),
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
  read('/admin/logs/export', 'logs:view', { answersText: true }),
  read('/admin/credit-packs', 'settings:view'),
  {
    method: 'POST',
    route: '/admin/credit-packs',
    need: 'settings:manage',
    ok: 201,
    target: async () => ({ id: uniqueName('pack') }),
    body: (t) => ({ name: t.id, credits: 100, price: 199, currency: 'usd', active: true }),
    probe: (api, t) => count(api, 'SELECT COUNT(*) AS n FROM credit_packs WHERE name = ?', [t.id]),
  },
  {
    method: 'PUT',
    route: '/admin/credit-packs/:packId',
    need: 'settings:manage',
    ok: 200,
    target: async (api) => {
      const pack = await creditPacksRepo.insert(
        api.ctx.db,
        { name: uniqueName('pack'), credits: 100, price: 199, currency: 'usd', active: true, sortOrder: 0 },
        api.clock.now,
      );
      return { id: pack.id };
    },
    path: (t) => `/admin/credit-packs/${t.id}`,
    body: () => ({ name: 'Renamed', credits: 250, price: 399, currency: 'usd', active: false }),
    probe: (api, t) => row(api, 'SELECT name, credits, active FROM credit_packs WHERE id = ?', [t.id]),
  },
  {
    method: 'PUT',
    route: '/admin/credit-packs/how-to',
    need: 'settings:manage',
    ok: 200,
    target: async () => ({ id: uniqueName('howto') }),
    body: (t) => ({ howTo: `Ask on our Discord (${t.id}).` }),
    probe: (api) => creditPacksRepo.howTo(api.ctx.db),
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
