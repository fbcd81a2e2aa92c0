import { adminPanelMessages, messageResponseSchema, type Settings, settingsSchema } from '@canopy/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { adminKeys } from '../../api/admin-list.ts';
import { useAdminMutation } from '../../api/admin-mutation.ts';
import { mergeSettingsChanges } from '../settings-draft.ts';

/** Query key of the global settings as the Settings tab edits them. */
export const adminSettingsKey = [...adminKeys.all, 'settings'] as const;

/** The app's profile queries (`['profile', userId]`): they carry the settings the shell and its gates read. */
const profileQueriesKey = ['profile'] as const;

const getSettings = (signal?: AbortSignal) =>
  api.get('/admin/settings', { schema: settingsSchema, signal, defaultError: () => adminPanelMessages.fetchSettings });

/** GET /admin/settings. */
export function useAdminSettings() {
  return useQuery({ queryKey: adminSettingsKey, queryFn: ({ signal }) => getSettings(signal) });
}

/** The switches as loaded (`saved`) and as the admin left them (`draft`). */
export interface SettingsEdit {
  saved: Settings;
  draft: Settings;
}

/**
 * Re-reads the settings, lays the admin's changed switches over them and POSTs the whole object; toasts 'Settings saved!' or the error ('Save failed'), then reloads
 * the tab's settings and the profile, so the admin's own shell (locked pages, banners) follows at once.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useAdminMutation({
    mutationFn: async ({ saved, draft }: SettingsEdit) => {
      const settings = mergeSettingsChanges(saved, draft, await getSettings());
      const answer = await api.post('/admin/settings', settings, {
        schema: messageResponseSchema,
        defaultError: () => adminPanelMessages.saveSettings,
      });
      // What was saved is what the api now holds: the switches must not flick back while the reload runs.
      queryClient.setQueryData(adminSettingsKey, settings);
      return answer;
    },
    success: () => adminPanelMessages.settingsSaved,
    fallback: adminPanelMessages.saveSettings,
    invalidate: [adminSettingsKey, profileQueriesKey],
  });
}
