import { adminUserMessages } from '@canopy/contract';
import { type AdminRoute, count, read, registered, userFields, userPath } from './admin-route-kit.ts';
import { sql } from './servers.ts';

/** The admin Users tab's routes (users.routes.ts and the user bans of bans.routes.ts). */
export const adminUserRoutes: AdminRoute[] = [
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
    also: { permissions: ['users:manage'], error: adminUserMessages.bulkNeedsManage },
    ok: 200,
    target: registered,
    body: (t) => ({ userIds: [t.id], action: 'addSlots', amount: 3 }),
    probe: userFields('available_slot'),
  },
];
