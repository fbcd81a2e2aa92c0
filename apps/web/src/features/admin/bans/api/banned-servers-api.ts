import { adminPanelMessages, type BanServerNameRequest, messageResponseSchema } from '@canopy/contract';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';

/** Query key prefix of the banned server names list. */
export const bannedServersKey = adminKeys.list('banned-servers');

/** POST /admin/banned-servers: {message}. `fallback` differs between the add form and the delete dialog. */
export function postBannedServer(request: BanServerNameRequest, fallback: string = adminPanelMessages.addBan) {
  return api.post('/admin/banned-servers', request, {
    schema: messageResponseSchema,
    defaultError: () => fallback,
  });
}

/** DELETE /admin/banned-servers/{name}: {message}. */
export function deleteBannedServer(name: string) {
  return api.delete(`/admin/banned-servers/${encodeURIComponent(name)}`, {
    schema: messageResponseSchema,
    defaultError: () => adminPanelMessages.unban,
  });
}
