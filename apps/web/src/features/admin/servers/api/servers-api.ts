import { adminPanelMessages, adminServersPageSchema, messageResponseSchema, type PowerAction } from '@canopy/contract';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys, useAdminList } from '../../api/admin-list.ts';
import { anyTransitional } from '../server-row-actions.ts';

/** How often the page is re-read while a row is STARTING, STOPPING or RESTARTING, so its status settles. */
export const SERVERS_SETTLE_POLL_MS = 3_000;

/** Query key prefix of the servers list (mutations reload it by this prefix). */
export const serversListKey = adminKeys.list('servers');

/**
 * One page of GET /admin/all-servers. Unlike the other lists it re-reads itself while a status is transitional:
 * an action answers 202 at once and the outcome only shows as a later status.
 */
export function useAdminServers(page: number, search: string) {
  return useAdminList({
    list: 'servers',
    path: '/admin/all-servers',
    schema: adminServersPageSchema,
    page,
    search,
    fallback: adminPanelMessages.fetchServers,
    refetchInterval: (data) => (anyTransitional(data?.items) ? SERVERS_SETTLE_POLL_MS : false),
  });
}

const serverPath = (name: string) => `/admin/servers/${encodeURIComponent(name)}`;

/** POST /admin/servers/{name}/start|stop|restart: 202 with {message}. */
export function postServerAction(name: string, action: PowerAction) {
  return api.post(`${serverPath(name)}/${action}`, undefined, {
    schema: messageResponseSchema,
    defaultError: () => adminPanelMessages.actionFailed,
  });
}

/** DELETE /admin/servers/{name}: {message}. */
export function deleteServer(name: string) {
  return api.delete(serverPath(name), {
    schema: messageResponseSchema,
    defaultError: () => adminPanelMessages.actionFailed,
  });
}
