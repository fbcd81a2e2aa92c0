import type { PlayerPut } from '@canopy/contract';
import { useEffect } from 'react';
import { Button, Modal, Spinner } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { isVersionConflict } from '../../../lib/api-client.ts';
import { usePlayer } from '../api/get-player.ts';
import { useSavePlayer } from '../api/save-player.ts';
import { useUnbanPlayer } from '../api/unban-player.ts';
import { BannedBadge } from './banned-badge.tsx';
import { PlayerEditorForm } from './player-editor-form.tsx';

export interface PlayerEditorProps {
  userId: string;
  name: string;
  onClose: () => void;
}

/** The player editor modal, in its states loading, loaded and saving; a failed load closes it. */
export function PlayerEditor({ userId, name, onClose }: PlayerEditorProps) {
  const player = usePlayer(userId, name);
  const save = useSavePlayer(userId);
  const unban = useUnbanPlayer(userId);
  useErrorToast(player.error);
  useEffect(() => {
    if (player.isError) onClose();
  }, [player.isError, onClose]);

  const state = player.isPending ? 'loading' : save.isPending ? 'saving' : 'loaded';
  return (
    <Modal open title={`Edit Player: ${name}`} onClose={() => !save.isPending && onClose()} className="max-w-3xl!">
      <div data-testid="player-editor" data-state={state}>
        {player.data?.banned && (
          <div className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-red-500/30 bg-red-500/5 px-3 py-2">
            <BannedBadge />
            <span className="flex-1 text-ink-muted text-sm">This player cannot join your server.</span>
            <Button
              size="sm"
              variant="secondary"
              data-testid="player-editor-unban"
              loading={unban.isPending}
              disabled={save.isPending}
              onClick={() => unban.mutate(name)}
            >
              Unban
            </Button>
          </div>
        )}
        {player.data ? (
          <PlayerEditorForm
            player={player.data}
            saving={save.isPending}
            saveError={save.error?.message ?? null}
            // Changed in the game since it was opened (409): Reload refetches it; the draft moves onto it.
            onReload={
              isVersionConflict(save.error)
                ? () => {
                    save.reset();
                    void player.refetch();
                  }
                : undefined
            }
            onCancel={onClose}
            onSave={(body: PlayerPut) => save.mutate({ name, player: body }, { onSuccess: onClose })}
          />
        ) : (
          <div className="flex justify-center py-16 text-accent">
            <Spinner size="lg" label="Loading player" />
          </div>
        )}
      </div>
    </Modal>
  );
}
