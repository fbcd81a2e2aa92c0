import type { Collaborator } from '@canopy/contract';
import { useEffect, useState } from 'react';
import { Button, Card, ConfirmDialog, SkeletonRows, useToast } from '../../../components/ui/index.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCollaborators } from '../api/get-collaborators.ts';
import { useRemoveCollaborator } from '../api/remove-collaborator.ts';
import { permissionLabel } from '../permission-labels.ts';
import { EditCollaboratorModal } from './edit-collaborator-modal.tsx';

/** 'Current Collaborators': the list (scrolling at 600 px), each with Edit (modal) and Remove (confirm). */
export function CollaboratorList({ userId }: { userId: string }) {
  const list = useCollaborators(userId, true);
  const remove = useRemoveCollaborator(userId);
  const [editing, setEditing] = useState<Collaborator | null>(null);
  const [removing, setRemoving] = useState<Collaborator | null>(null);
  const count = list.data?.length;
  const toast = useToast();
  const loadError = list.error?.message;

  // Spec section 8: a failed load is a toast too, besides the red text in place of the list.
  useEffect(() => {
    if (loadError) toast.error(loadError);
  }, [loadError, toast]);

  return (
    <Card heading={`Current Collaborators${count === undefined ? '' : ` (${count})`}`}>
      {list.isPending ? (
        <SkeletonRows rows={3} />
      ) : list.isError ? (
        <p data-testid="collaborators-error" className="text-red-400 text-sm">
          {list.error.message}
        </p>
      ) : list.data.length === 0 ? (
        <p data-testid="collaborators-empty" className="text-ink-muted text-sm">
          No collaborators yet. Add one with their Discord ID.
        </p>
      ) : (
        <ul data-testid="collaborator-list" className="flex max-h-[600px] flex-col gap-2 overflow-y-auto pr-1">
          {list.data.map((c) => (
            <li
              key={c.DiscordID}
              data-testid="collaborator-row"
              data-discord-id={c.DiscordID}
              className="flex items-start justify-between gap-3 rounded-lg border border-line bg-canvas/60 px-4 py-3"
            >
              <div className="flex min-w-0 flex-1 flex-col gap-1.5">
                <p className="font-medium text-ink">
                  {c.DiscordUsername}
                  {c.GrowID && <span className="ml-2 text-ink-muted text-sm">({c.GrowID})</span>}
                </p>
                <p className="text-ink-muted text-xs">
                  Discord ID {c.DiscordID} · added {formatDate(c.addedAt)}
                </p>
                <ul className="flex flex-wrap gap-1.5" aria-label="Permissions">
                  {c.Permissions.map((p) => (
                    <li key={p} className="rounded-full bg-accent/15 px-2 py-0.5 text-accent text-xs">
                      {permissionLabel(p)}
                    </li>
                  ))}
                </ul>
              </div>
              <div className="flex shrink-0 gap-2">
                <Button size="sm" variant="secondary" data-testid="collaborator-edit" onClick={() => setEditing(c)}>
                  Edit
                </Button>
                <Button size="sm" variant="danger" data-testid="collaborator-remove" onClick={() => setRemoving(c)}>
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && <EditCollaboratorModal userId={userId} collaborator={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={removing !== null}
        title="Remove collaborator"
        message={
          <>
            Remove <strong>{removing?.DiscordUsername}</strong> from your server? They lose access to it at once.
          </>
        }
        confirmLabel="Remove"
        tone="danger"
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.DiscordID, { onSettled: () => setRemoving(null) })}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}
