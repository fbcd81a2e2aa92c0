import {
  adminPanelMessages,
  adminSettingLabels,
  type SettingKey,
  type SettingsResponse,
  adminOverviewMessages as text,
  versionedWriteMessages,
} from '@canopy/contract';
import { Banner, Button, SkeletonRows, Toggle } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { isVersionConflict } from '../../../lib/api-client.ts';
import { useAdminCan } from '../admin-caller.ts';
import { AdminLoadError } from '../components/admin-list-frame.tsx';
import { useAdminSettings, useSaveSettings } from './api/settings.ts';
import { CreditPacksSection } from './credit-packs-section.tsx';
import { draftOf, isSettingsDirty, rebaseEdits, withEdit } from './settings-draft.ts';
import { useSettingsEdits } from './settings-draft-store.ts';

/**
 * The Settings tab of /admin (admin document, section 2): the eight global switches and a Save that posts the
 * whole object, conditional on the version loaded (ADR 0035). Changes stay a draft until saved; an admin without
 * settings:manage sees them read-only.
 */
export function SettingsTab() {
  const settings = useAdminSettings();
  useErrorToast(settings.error);
  const error = settings.error && (
    <AdminLoadError testId="admin-settings-error" error={settings.error} fallback={adminPanelMessages.fetchSettings} />
  );
  if (!settings.data) return error || <SkeletonRows rows={8} />;
  // A failed reload keeps the form mounted, so unsaved switches survive; the error shows above it.
  return (
    <div className="flex flex-col gap-4">
      {error}
      <SettingsForm
        saved={settings.data}
        reload={async () => {
          const latest = await settings.refetch();
          return latest.isError ? undefined : latest.data;
        }}
      />
      <CreditPacksSection />
    </div>
  );
}

interface SettingsFormProps {
  saved: SettingsResponse;
  /** Fetches the latest settings; resolves to them (undefined when the fetch failed: its error shows). */
  reload: () => Promise<SettingsResponse | undefined>;
}

function SettingsForm({ saved, reload }: SettingsFormProps) {
  const canManage = useAdminCan()('settings:manage');
  const save = useSaveSettings();
  // The edits outlive the tab (another tab and back keeps them); with none, the switches show what is saved and
  // follow a reload of it.
  const [edits, setEdits] = useSettingsEdits();
  const draft = draftOf(saved, edits);
  const shown = draft ?? saved;
  const dirty = isSettingsDirty(saved, draft);
  const locked = !canManage || save.isPending;

  const flip = (key: SettingKey, value: boolean) => setEdits(withEdit(saved, edits, key, value));
  const submit = () => draft && save.mutate({ saved, draft }, { onSuccess: () => setEdits({}) });
  // Another admin saved since this tab loaded (409): Reload shows the latest settings with this admin's switches
  // still on top (those now saved by the other admin too are no longer edits), to check and save again.
  const conflict = isVersionConflict(save.error);
  const reloadLatest = async () => {
    const fresh = await reload();
    if (!fresh) return;
    save.reset();
    setEdits((now) => rebaseEdits(fresh, now));
  };

  return (
    <form
      data-testid="admin-settings"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (dirty && canManage) submit();
      }}
    >
      {!canManage && (
        <p
          data-testid="admin-settings-view-only"
          className="rounded-md border border-line bg-surface-raised px-4 py-3 text-ink-muted text-sm"
        >
          {text.settingsViewOnly}
        </p>
      )}
      <ul className="divide-y divide-line/60 rounded-xl border border-line bg-surface">
        {adminSettingLabels.map(({ key, label, help }) => (
          <li key={key} data-setting={key} className="px-4 py-3.5 sm:px-5">
            <Toggle
              checked={shown[key]}
              onChange={(value) => flip(key, value)}
              label={label}
              description={help}
              disabled={locked}
            />
          </li>
        ))}
      </ul>
      {conflict && (
        <Banner tone="danger" data-testid="admin-settings-conflict">
          <div className="flex flex-wrap items-center gap-3">
            <p className="mr-auto">{save.error?.message}</p>
            <Button variant="secondary" size="sm" onClick={() => void reloadLatest()}>
              {versionedWriteMessages.reload}
            </Button>
          </div>
        </Banner>
      )}
      <div className="flex flex-wrap items-center justify-end gap-3 max-sm:mb-16">
        {dirty && (
          <span role="status" className="mr-auto text-amber-300 text-sm">
            {text.settingsUnsaved}
          </span>
        )}
        <Button variant="ghost" disabled={!dirty || locked} onClick={() => setEdits({})}>
          {text.settingsDiscard}
        </Button>
        <Button type="submit" loading={save.isPending} disabled={!dirty || !canManage}>
          {text.settingsSave}
        </Button>
      </div>
    </form>
  );
}
