import {
  type AdminPermission,
  adminAccountPageSchema,
  adminPanelMessages,
  adminPermissionsSchema,
  messageResponseSchema,
} from '@canopy/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys, useAdminList } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';

const LIST = 'admins';
const permissionsKey = (id: string) => [...adminKeys.all, 'admin-permissions', id] as const;

/** One page of GET /admin/admins (super admins only). */
export function useAdmins(page: number) {
  return useAdminList({
    list: LIST,
    path: '/admin/admins',
    schema: adminAccountPageSchema,
    page,
    fallback: adminPanelMessages.fetchAdmins,
  });
}

/** The four role moves: each a call naming the target, answered with a {message} to toast. */
export type RoleMove = 'promoteAdmin' | 'promoteSuper' | 'demoteSuper' | 'remove';

const options = { schema: messageResponseSchema, defaultError: () => adminPanelMessages.actionFailed };
const callOf: Record<RoleMove, (id: string) => Promise<{ message: string }>> = {
  promoteAdmin: (id) => api.post('/admin/admins', { discordId: id }, options),
  promoteSuper: (id) => api.post('/admin/superadmins', { discordId: id }, options),
  demoteSuper: (id) => api.delete(`/admin/superadmins/${encodeURIComponent(id)}`, options),
  remove: (id) => api.delete(`/admin/admins/${encodeURIComponent(id)}`, options),
};

/** A role move: toasts the api's {message}, else 'Action failed.'; reloads the list (and the users list). */
export function useRoleMove() {
  return useAdminMutation({
    mutationFn: ({ move, id }: { move: RoleMove; id: string }) => callOf[move](id),
    success: (answer) => answer.message,
    fallback: adminPanelMessages.actionFailed,
    invalidate: [adminKeys.list(LIST), adminKeys.list('users')],
  });
}

/** GET /admin/admins/{id}/permissions, loaded when the editor opens (null: closed). */
export function useAdminPermissions(id: string | null) {
  return useQuery({
    queryKey: permissionsKey(id ?? ''),
    enabled: id !== null,
    // The editor must start from what is stored now, not from an earlier visit.
    staleTime: 0,
    gcTime: 0,
    queryFn: ({ signal }) =>
      api.get(`/admin/admins/${encodeURIComponent(id ?? '')}/permissions`, {
        schema: adminPermissionsSchema,
        signal,
        defaultError: () => adminPanelMessages.fetchPermissions,
      }),
  });
}

/** PUT /admin/admins/{id}/permissions: toasts the api's {message}; reloads the list (its permission counts). */
export function useSavePermissions() {
  return useAdminMutation({
    mutationFn: ({ id, permissions }: { id: string; permissions: AdminPermission[] }) =>
      api.put(
        `/admin/admins/${encodeURIComponent(id)}/permissions`,
        { permissions },
        {
          schema: messageResponseSchema,
          defaultError: () => adminPanelMessages.savePermissions,
        },
      ),
    success: (answer) => answer.message,
    fallback: adminPanelMessages.savePermissions,
    invalidate: [adminKeys.list(LIST)],
  });
}
