import { type Collaborator, type UpdateCollaboratorRequest, updateCollaboratorRequestSchema } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button, Modal } from '../../../components/ui/index.ts';
import { useUpdateCollaborator } from '../api/update-collaborator.ts';
import { knownPermissions } from '../permission-labels.ts';
import { PermissionCheckboxes } from './permission-checkboxes.tsx';

export interface EditCollaboratorModalProps {
  userId: string;
  collaborator: Collaborator;
  onClose: () => void;
}

/** Edits a collaborator's permissions; mounted per opening, so it starts from the stored ones. */
export function EditCollaboratorModal({ userId, collaborator, onClose }: EditCollaboratorModalProps) {
  const formId = useId();
  const update = useUpdateCollaborator(userId);
  const form = useForm<UpdateCollaboratorRequest>({
    resolver: zodResolver(updateCollaboratorRequestSchema),
    defaultValues: { permissions: knownPermissions(collaborator.Permissions) },
  });
  const close = () => {
    if (!update.isPending) onClose();
  };
  return (
    <Modal
      open
      title={`Edit ${collaborator.DiscordUsername}`}
      onClose={close}
      className="max-w-xl"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} data-testid="collaborator-save" loading={update.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={form.handleSubmit(({ permissions }) =>
          update.mutate({ discordId: collaborator.DiscordID, permissions }, { onSuccess: onClose }),
        )}
      >
        <Controller
          control={form.control}
          name="permissions"
          render={({ field, fieldState }) => (
            <PermissionCheckboxes
              value={field.value}
              onChange={field.onChange}
              disabled={update.isPending}
              error={fieldState.error?.message}
            />
          )}
        />
      </form>
    </Modal>
  );
}
