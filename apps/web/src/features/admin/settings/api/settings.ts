import {
  adminPanelMessages,
  type Settings,
  type SettingsResponse,
  settingsResponseSchema,
  settingsSaveResponseSchema,
} from '@canopy/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isVersionConflict } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';
import { settingsBody } from '../settings-draft.ts';

/** Query key of the global settings (and their version) as the Settings tab edits them. */
export const adminSettingsKey = [...adminKeys.all, 'settings'] as const;

/** The app's profile queries (`['profile', userId]`): they carry the settings the shell and its gates read. */
const profileQueriesKey = ['profile'] as const;

/** GET /admin/settings: the switches and their version (ADR 0035). */
export function useAdminSettings() {
  return useQuery({
    queryKey: adminSettingsKey,
    queryFn: ({ signal }) =>
      api.get('/admin/settings', {
        schema: settingsResponseSchema,
        signal,
        defaultError: () => adminPanelMessages.fetchSettings,
      }),
  });
}

/** The switches as loaded, with their version (`saved`), and as the admin left them (`draft`). */
export interface SettingsEdit {
  saved: SettingsResponse;
  draft: Settings;
}

/**
 * POSTs the whole object, conditional on the version the tab loaded (If-Match): a save by another admin since is
 * refused (409 version_conflict) rather than undone. Toasts 'Settings saved!' or the error ('Save failed'), then
 * reloads the tab's settings and the profile, so the admin's own shell (locked pages, banners) follows at once.
 * After a 409 the tab's settings are not reloaded behind the admin's back: the tab offers Reload.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  const reloadSettings = () => queryClient.invalidateQueries({ queryKey: adminSettingsKey });
  return useAdminMutation({
    mutationFn: async ({ saved, draft }: SettingsEdit) => {
      const answer = await api
        .post('/admin/settings', settingsBody(draft), {
          schema: settingsSaveResponseSchema,
          ifMatch: saved.version,
          defaultError: () => adminPanelMessages.saveSettings,
        })
        .catch((error: unknown) => {
          // Any other refusal may mean the tab was stale: it reloads, as after every admin write.
          if (!isVersionConflict(error)) void reloadSettings();
          throw error;
        });
      // What was saved is what the api now holds: the switches must not flick back while the reload runs.
      queryClient.setQueryData<SettingsResponse>(adminSettingsKey, { ...answer.settings, version: answer.version });
      void reloadSettings();
      return answer;
    },
    success: () => adminPanelMessages.settingsSaved,
    fallback: adminPanelMessages.saveSettings,
    invalidate: [profileQueriesKey],
  });
}
