import type { WorldPut } from '@canopy/contract';
import { useEffect } from 'react';
import { Modal, Spinner } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { isVersionConflict } from '../../../lib/api-client.ts';
import { useWorld } from '../api/get-world.ts';
import { useSaveWorld } from '../api/save-world.ts';
import { WorldEditorForm } from './world-editor-form.tsx';

export interface WorldEditorProps {
  userId: string;
  name: string;
  onClose: () => void;
}

/** The edit modal of one world, in its states loading, loaded and saving; a failed load closes it. */
export function WorldEditor({ userId, name, onClose }: WorldEditorProps) {
  const world = useWorld(userId, name);
  const save = useSaveWorld(userId);
  useErrorToast(world.error);
  useEffect(() => {
    if (world.isError) onClose();
  }, [world.isError, onClose]);

  const state = world.isPending ? 'loading' : save.isPending ? 'saving' : 'loaded';
  return (
    <Modal open title={`Edit World: ${name}`} onClose={() => !save.isPending && onClose()} className="max-w-3xl!">
      <div data-testid="world-editor" data-state={state}>
        {world.data ? (
          <WorldEditorForm
            world={world.data}
            saving={save.isPending}
            saveError={save.error?.message ?? null}
            // Changed in the game since it was opened (409): Reload refetches it; the draft moves onto it.
            onReload={
              isVersionConflict(save.error)
                ? () => {
                    save.reset();
                    void world.refetch();
                  }
                : undefined
            }
            onCancel={onClose}
            onSave={(body: WorldPut) => save.mutate({ name, world: body }, { onSuccess: onClose })}
          />
        ) : (
          <div className="flex justify-center py-16 text-accent">
            <Spinner size="lg" label="Loading world" />
          </div>
        )}
      </div>
    </Modal>
  );
}
