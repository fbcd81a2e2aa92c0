import {
  type AdminAccount,
  type AdminPermission,
  adminPermissionPresets,
  adminRoleLabels as labels,
} from '@canopy/contract';
import { useState } from 'react';
import { Button, Modal, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useAdminPermissions, useSavePermissions } from './api/admins-api.ts';
import {
  applyPreset,
  groupPermissions,
  matchingPreset,
  normalizePermissions,
  togglePermission,
} from './permission-logic.ts';

const groups = groupPermissions();
const areaTitle = (area: string) => area.charAt(0).toUpperCase() + area.slice(1);

/**
 * The permission editor of one admin (admin document, sections 4 and 6): loading, then a checkbox per
 * permission grouped by area with the presets on top, then saving. `admin` null means closed.
 */
export function PermissionEditor({ admin, onClose }: { admin: AdminAccount | null; onClose: () => void }) {
  const loaded = useAdminPermissions(admin?.id ?? null);
  // Section 8: a failed load is a toast too, besides the text and Retry in the dialog.
  useErrorToast(loaded.error);
  const save = useSavePermissions();
  // The admin's edits; null until the first one, so the stored list shows as soon as it arrives.
  const [draft, setDraft] = useState<AdminPermission[] | null>(null);
  const selected = draft ?? normalizePermissions(loaded.data?.permissions ?? []);
  const preset = matchingPreset(selected);
  const ready = loaded.isSuccess;

  const close = () => {
    if (save.isPending) return;
    setDraft(null);
    onClose();
  };
  const submit = () => {
    if (!admin) return;
    save.mutate({ id: admin.id, permissions: selected }, { onSuccess: close });
  };

  return (
    <Modal
      open={admin !== null}
      title={labels.editorTitle(admin?.username ?? '')}
      onClose={close}
      className="max-w-2xl"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={save.isPending}>
            {labels.cancel}
          </Button>
          <Button onClick={submit} disabled={!ready} loading={save.isPending}>
            {labels.save}
          </Button>
        </>
      }
    >
      {loaded.isPending ? (
        <SkeletonRows rows={4} />
      ) : loaded.isError ? (
        <div className="flex flex-col items-start gap-3">
          <p role="alert" className="text-red-400">
            {loaded.error.message}
          </p>
          <Button size="sm" variant="secondary" onClick={() => void loaded.refetch()}>
            {labels.retry}
          </Button>
        </div>
      ) : (
        // Scrolls inside the dialog, so Save stays in view on a phone.
        <fieldset
          disabled={save.isPending}
          data-testid="permission-editor"
          className="-mx-1 flex max-h-[60vh] flex-col gap-4 overflow-y-auto px-1"
        >
          <div className="flex flex-col gap-2">
            <span className="font-medium text-ink-muted text-xs uppercase tracking-wide">{labels.presets}</span>
            <div className="flex flex-wrap gap-2">
              {adminPermissionPresets.map((p) => (
                <Button
                  key={p.name}
                  size="sm"
                  variant={preset === p.name ? 'primary' : 'secondary'}
                  aria-pressed={preset === p.name}
                  onClick={() => setDraft(applyPreset(p.name))}
                >
                  {p.name}
                </Button>
              ))}
            </div>
          </div>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {groups.map((group) => (
              <fieldset key={group.area} className="rounded-lg border border-line px-3 py-2">
                <legend className="px-1 font-medium text-ink text-sm">{areaTitle(group.area)}</legend>
                {group.permissions.map((permission) => (
                  <label key={permission} className="flex items-center gap-2 py-0.5 text-ink text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-emerald-500"
                      checked={selected.includes(permission)}
                      onChange={(event) => setDraft(togglePermission(selected, permission, event.target.checked))}
                    />
                    <span className="font-mono text-xs">{permission}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        </fieldset>
      )}
    </Modal>
  );
}
