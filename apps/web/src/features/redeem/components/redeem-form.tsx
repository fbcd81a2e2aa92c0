import { type RedeemRequest, redeemMessages, redeemRequestSchema } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, Card, Input } from '../../../components/ui/index.ts';
import type { useRedeemCode } from '../api/redeem-code.ts';

/** The private code field: the code is required; the api's answer arrives as a toast. */
export function RedeemForm({ redeem }: { redeem: ReturnType<typeof useRedeemCode> }) {
  const form = useForm<RedeemRequest>({ resolver: zodResolver(redeemRequestSchema), defaultValues: { code: '' } });
  const code = form.watch('code');
  const submit = form.handleSubmit((request) => redeem.mutate(request, { onSuccess: () => form.reset() }));
  return (
    <Card heading="Redeem a Code">
      <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Input
          label="Code"
          className="flex-1"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. K7QH-2MZP-X9TC"
          data-testid="redeem-input"
          error={form.formState.errors.code?.message}
          hint="Codes are not case-sensitive."
          {...form.register('code')}
        />
        <Button
          type="submit"
          className="sm:mt-7"
          data-testid="redeem-submit"
          disabled={code.trim() === ''}
          title={code.trim() === '' ? redeemMessages.codeRequired : undefined}
          loading={redeem.isPending && redeem.variables?.code === code.trim()}
        >
          Redeem
        </Button>
      </form>
    </Card>
  );
}
