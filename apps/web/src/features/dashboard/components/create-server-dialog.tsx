import { type CreateServerRequest, createServerRequestSchema } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Input, Modal } from '../../../components/ui/index.ts';
import { useCreateServer } from '../api/create-server.ts';

export interface CreateServerDialogProps {
  open: boolean;
  userId: string;
  onClose: () => void;
}

/** Asks for the server name (validated live with the contract's rules) and creates the server. */
export function CreateServerDialog({ open, userId, onClose }: CreateServerDialogProps) {
  const formId = useId();
  const create = useCreateServer(userId);
  const form = useForm<CreateServerRequest>({
    resolver: zodResolver(createServerRequestSchema),
    mode: 'onChange',
    defaultValues: { serverName: '' },
  });
  const { errors, isValid } = form.formState;

  const close = () => {
    if (create.isPending) return;
    form.reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      title="Create Server"
      onClose={close}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={!isValid} loading={create.isPending}>
            Create
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="flex flex-col gap-4"
        // A failure keeps the modal open, so a taken name can be changed and sent again.
        onSubmit={form.handleSubmit((request) =>
          create.run(request, () => {
            form.reset();
            onClose();
          }),
        )}
      >
        <p className="text-ink-muted">Choose a name for your server. It is how players will find it.</p>
        <Input
          label="Server name"
          autoComplete="off"
          autoFocus
          placeholder="e.g. My_Server-1"
          hint="3 to 20 letters, numbers, underscores or hyphens."
          error={errors.serverName?.message}
          {...form.register('serverName')}
        />
      </form>
    </Modal>
  );
}
