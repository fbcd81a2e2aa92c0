import { type AddCollaboratorRequest, addCollaboratorRequestSchema, serverPageMessages } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button, Card, Input, useToast } from '../../../components/ui/index.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useAddCollaborator } from '../api/add-collaborator.ts';
import { useDiscordIdValidation } from '../api/validate-discord-id.ts';
import { DISCORD_ID_DEBOUNCE_MS, discordIdCheck, discordIdState, validationErrorMessage } from '../discord-id-check.ts';
import { DiscordIdStatus } from './discord-id-status.tsx';
import { PermissionCheckboxes } from './permission-checkboxes.tsx';

/** The Add form (spec section 2): a Discord ID checked live 500 ms after typing stops, and the permissions. */
export function AddCollaboratorForm({ userId }: { userId: string }) {
  const toast = useToast();
  const add = useAddCollaborator(userId);
  const form = useForm<AddCollaboratorRequest>({
    resolver: zodResolver(addCollaboratorRequestSchema),
    defaultValues: { discordId: '', permissions: [] },
  });
  const input = form.watch('discordId');
  const settled = useDebouncedValue(input, DISCORD_ID_DEBOUNCE_MS);
  const check = discordIdCheck(settled);
  const validation = useDiscordIdValidation(userId, check.kind === 'remote' ? check.discordId : null);
  const state = discordIdState({ input, settled, result: validation.data, error: validation.error });
  const valid = state.status === 'valid';

  useEffect(() => {
    if (validation.error) toast.error(validationErrorMessage(validation.error));
  }, [validation.error, toast]);

  const submit = form.handleSubmit((request) => {
    if (!valid) {
      toast.error(serverPageMessages.invalidCollaborator);
      return;
    }
    add.mutate(request, { onSuccess: () => form.reset() });
  });

  return (
    <Card heading="Add Collaborator">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <Input
            label="Discord ID"
            inputMode="numeric"
            autoComplete="off"
            placeholder="e.g. 123456789012345678"
            data-testid="collaborator-discord-id"
            {...form.register('discordId')}
          />
          <DiscordIdStatus state={state} />
        </div>
        <Controller
          control={form.control}
          name="permissions"
          render={({ field, fieldState }) => (
            <PermissionCheckboxes value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="submit"
            data-testid="collaborator-add"
            disabled={!valid}
            loading={add.isPending}
            title={valid ? undefined : serverPageMessages.invalidCollaborator}
          >
            Add Collaborator
          </Button>
          {!valid && state.status !== 'idle' && state.status !== 'validating' && (
            <p data-testid="collaborator-add-reason" className="text-ink-muted text-xs">
              {serverPageMessages.invalidCollaborator}
            </p>
          )}
        </div>
      </form>
    </Card>
  );
}
