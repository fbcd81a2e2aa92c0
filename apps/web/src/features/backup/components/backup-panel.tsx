import { backupMessages as b } from '@canopy/contract';
import { useState } from 'react';
import { Button, Card, ConfirmDialog, Spinner } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { createBackup, deleteBackup, restoreBackup, useBackupAction } from '../api/backup-mutations.ts';
import { useBackupStatus } from '../api/get-backup.ts';

const MB = 1024 * 1024;

/** The panel's size format (MB and up); a backup under 1 MB in KB, which '0MB' would hide. */
const backupSize = (bytes: number) =>
  bytes < MB ? `${Math.max(1, Math.round(bytes / 1024))}KB` : formatSize(bytes / MB);

/** The backup's state: loading, error, 'Backup Found' (restore, delete) or 'No Backup Found' (create). */
export function BackupPanel({ userId }: { userId: string }) {
  const status = useBackupStatus(userId);
  const create = useBackupAction(userId, createBackup);
  const restore = useBackupAction(userId, restoreBackup);
  const remove = useBackupAction(userId, deleteBackup);
  const [confirming, setConfirming] = useState<'restore' | 'delete' | null>(null);
  // Spec section 8: every failure is an error toast too ('Failed to fetch backup status.').
  useErrorToast(status.error);
  const busy = create.isPending || restore.isPending || remove.isPending;

  if (status.isPending)
    return (
      <Card data-testid="backup-state" data-state="loading" className="flex justify-center py-12 text-accent">
        <Spinner size="lg" label="Loading backup status" />
      </Card>
    );
  if (status.isError)
    return (
      <Card data-testid="backup-state" data-state="error" className="py-8 text-center">
        <p className="text-red-400">{status.error.message || b.fetchFailed}</p>
        <Button variant="secondary" size="sm" className="mt-4" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </Card>
    );

  const backup = status.data;
  if (!backup.exists)
    return (
      <Card data-testid="backup-state" data-state="none" className="py-10 text-center">
        <div className="flex flex-col items-center gap-3">
          <h2 className="font-semibold text-ink text-xl">{b.none}</h2>
          <p className="max-w-md text-ink-muted">{b.noneHint}</p>
          <Button loading={create.isPending} disabled={busy} onClick={() => create.mutate()}>
            {b.create}
          </Button>
        </div>
      </Card>
    );

  const act = () => {
    if (confirming === 'restore') restore.mutate(undefined, { onSettled: () => setConfirming(null) });
    if (confirming === 'delete') remove.mutate(undefined, { onSettled: () => setConfirming(null) });
  };
  return (
    <Card data-testid="backup-state" data-state="found">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h2 className="font-semibold text-ink text-xl">{b.found}</h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-muted">Created</dt>
            <dd data-testid="backup-created" className="text-ink">
              {formatDateTime(backup.createdAt)}
            </dd>
            <dt className="text-ink-muted">Size</dt>
            <dd data-testid="backup-size" className="text-ink">
              {backupSize(backup.bytes)}
            </dd>
          </dl>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button disabled={busy} loading={restore.isPending} onClick={() => setConfirming('restore')}>
            {b.restore}
          </Button>
          <Button variant="danger" disabled={busy} loading={remove.isPending} onClick={() => setConfirming('delete')}>
            {b.delete}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'restore' ? b.restoreConfirmTitle : b.deleteConfirmTitle}
        message={confirming === 'restore' ? b.restoreConfirm : b.deleteConfirm}
        confirmLabel={confirming === 'restore' ? b.restore : b.delete}
        tone={confirming === 'delete' ? 'danger' : 'primary'}
        loading={busy}
        onConfirm={act}
        onCancel={() => setConfirming(null)}
      />
    </Card>
  );
}
