import { accountChangeRefusal, adminUserLabels as t } from '@canopy/contract';
import { useIsMutating } from '@tanstack/react-query';
import { Modal, Spinner } from '../../../../components/ui/index.ts';
import { useErrorToast } from '../../../../hooks/use-error-toast.ts';
import { useRegisteredProfile } from '../../../../lib/profile-query.ts';
import { useAdminCan } from '../../admin-caller.ts';
import { userWriteKey } from '../api/user-actions.ts';
import { useAdminUser } from '../api/user-detail.ts';
import { BanSection } from './ban-section.tsx';
import { ChangeSection } from './change-section.tsx';
import { CreditSection } from './credit-section.tsx';
import { PlanSection } from './plan-section.tsx';
import { StorageSection } from './storage-section.tsx';
import { UserSummary } from './user-summary.tsx';

export interface ManageUserDialogProps {
  discordId: string;
  /** Shown in the title while the detail loads. */
  name: string;
  onClose: () => void;
}

/**
 * The manage-user dialog in its states loading, loaded and saving (section 4). Without users:manage it is
 * read-only: the sections stay visible, their fields and buttons disabled; so it is, with the reason shown, for
 * the admin's own account and one of an equal or higher role (contract accountChangeRefusal, which the api applies).
 */
export function ManageUserDialog({ discordId, name, onClose }: ManageUserDialogProps) {
  const can = useAdminCan();
  const { profile } = useRegisteredProfile();
  const manage = can('users:manage');
  const user = useAdminUser(discordId);
  // Their own account, or one of an equal or higher role: the api refuses every change, so the dialog says why.
  const refusal =
    manage && user.data
      ? accountChangeRefusal(profile, {
          id: user.data.DiscordID,
          isAdmin: user.data.isAdmin,
          isSuperAdmin: user.data.isSuperAdmin,
        })
      : null;
  // Section 8: a failed load is a toast too; the dialog keeps the text in place of its content.
  useErrorToast(user.error);
  // One write to this user at a time: while one runs, every section waits (their answers reload the same detail).
  const saving = useIsMutating({ mutationKey: userWriteKey(discordId) }) > 0;
  const state = user.data ? (saving ? 'saving' : 'loaded') : user.isError ? 'error' : 'loading';
  const disabled = !manage || refusal !== null || saving;
  return (
    <Modal open title={t.dialogTitle(user.data?.DiscordUsername ?? name)} onClose={onClose} className="max-w-2xl!">
      <div data-testid="admin-user-dialog" data-state={state} className="flex flex-col gap-4">
        {user.error && !user.data ? (
          <p role="alert" className="text-red-400">
            {user.error.message}
          </p>
        ) : !user.data ? (
          <div className="flex justify-center py-12 text-accent">
            <Spinner size="lg" label={t.loadingUser} />
          </div>
        ) : (
          <>
            <UserSummary user={user.data} />
            {!manage && <p className="text-ink-muted text-xs">{t.readOnly}</p>}
            {refusal && (
              <p data-testid="admin-user-refusal" className="text-ink-muted text-xs">
                {refusal}
              </p>
            )}
            <ChangeSection discordId={discordId} kind="expiry" disabled={disabled} />
            <ChangeSection discordId={discordId} kind="slot" disabled={disabled} />
            <StorageSection
              key={user.data.StorageLimitMB}
              discordId={discordId}
              limitMB={user.data.StorageLimitMB}
              disabled={disabled}
            />
            <PlanSection discordId={discordId} plan={user.data.AccountType} disabled={disabled} />
            <CreditSection discordId={discordId} disabled={disabled} />
            <BanSection user={user.data} disabled={disabled} />
          </>
        )}
      </div>
    </Modal>
  );
}
