import { adminTargetSchema, adminRoleLabels as labels } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, Card, Input } from '../../../components/ui/index.ts';
import { useRoleMove } from './api/admins-api.ts';

/** "Promote user to admin" by Discord ID, checked with the contract's discordIdSchema before the call. */
export function PromoteForm() {
  const move = useRoleMove();
  const form = useForm<{ discordId: string }>({
    resolver: zodResolver(adminTargetSchema),
    defaultValues: { discordId: '' },
  });
  const submit = form.handleSubmit(({ discordId }) =>
    move.mutate({ move: 'promoteAdmin', id: discordId }, { onSuccess: () => form.reset() }),
  );
  return (
    <Card heading={labels.promoteHeading}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Input
          label={labels.discordIdLabel}
          inputMode="numeric"
          autoComplete="off"
          placeholder={labels.discordIdPlaceholder}
          className="sm:w-80"
          error={form.formState.errors.discordId?.message}
          {...form.register('discordId')}
        />
        <Button type="submit" loading={move.isPending} className="sm:mt-6.5">
          {labels.promote}
        </Button>
      </form>
    </Card>
  );
}
