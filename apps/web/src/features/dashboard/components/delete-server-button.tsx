import type { Profile } from '@canopy/contract';
import { useState } from 'react';
import { Button, ConfirmDialog } from '../../../components/ui/index.ts';
import { useDeleteServer } from '../api/delete-server.ts';
import { deleteControl } from '../server-controls.ts';

export interface DeleteServerButtonProps {
  serverName: string;
  profile: Profile;
  /** True while the server is between states (the api refuses a delete during an action). */
  busy?: boolean;
}

/** Delete Server (owner only) behind a confirmation; collaborators see it disabled with the reason. */
export function DeleteServerButton({ serverName, profile, busy = false }: DeleteServerButtonProps) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteServer(profile.id);
  const control = deleteControl(profile);
  return (
    <>
      <Button
        variant="ghost"
        data-testid="server-delete"
        disabled={busy || !control.enabled}
        title={control.reason ?? undefined}
        onClick={() => setOpen(true)}
        className="text-red-300 hover:bg-red-500/10 hover:text-red-200"
      >
        Delete Server
      </Button>
      <ConfirmDialog
        open={open}
        title="Delete server"
        message={
          <>
            Delete <strong>{serverName}</strong>? The server and all of its data (worlds, players, backups and
            configuration) will be removed permanently. This cannot be undone.
          </>
        }
        confirmLabel="Delete"
        tone="danger"
        loading={remove.isPending}
        onConfirm={() => remove.run(true, () => setOpen(false))}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
