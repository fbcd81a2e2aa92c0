import type { PlayerPut } from '@canopy/contract';
import { useEffect } from 'react';
import { Modal, Spinner } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { usePlayer } from '../api/get-player.ts';
import { useSavePlayer } from '../api/save-player.ts';
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
  useErrorToast(player.error);
  useEffect(() => {
    if (player.isError) onClose();
  }, [player.isError, onClose]);

  const state = player.isPending ? 'loading' : save.isPending ? 'saving' : 'loaded';
  return (
    <Modal open title={`Edit Player: ${name}`} onClose={() => !save.isPending && onClose()} className="max-w-3xl!">
      <div data-testid="player-editor" data-state={state}>
        {player.data ? (
          <PlayerEditorForm
            player={player.data}
            saving={save.isPending}
            saveError={save.error?.message ?? null}
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
