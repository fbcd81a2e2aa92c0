import { redeemLabels as l, type RedeemRequest, redeemMessages, redeemRequestSchema } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, Card, Input } from '../../../components/ui/index.ts';
import type { useRedeemCode } from '../api/redeem-code.ts';

/**
 * The private code field: the code is required; the api's answer arrives as a toast. Submits while a
 * redeem runs (a quick second Enter) are ignored, and the button stays disabled until it is answered.
 */
export function RedeemForm({ redeem }: { redeem: ReturnType<typeof useRedeemCode> }) {
  const form = useForm<RedeemRequest>({ resolver: zodResolver(redeemRequestSchema), defaultValues: { code: '' } });
  const code = form.watch('code');
  const submit = form.handleSubmit((request) => redeem.redeem(request, { onSuccess: () => form.reset() }));
  return (
    <Card heading={l.formHeading}>
      <form
        noValidate
        onSubmit={(event) => {
          if (redeem.isPending) event.preventDefault();
          else void submit(event);
        }}
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <Input
          label={l.codeLabel}
          className="flex-1"
          autoComplete="off"
          spellCheck={false}
          placeholder={l.codePlaceholder}
          data-testid="redeem-input"
          error={form.formState.errors.code?.message}
          hint={l.codeHint}
          {...form.register('code')}
        />
        <Button
          type="submit"
          className="sm:mt-7"
          data-testid="redeem-submit"
          disabled={code.trim() === '' || redeem.isPending}
          title={code.trim() === '' ? redeemMessages.codeRequired : undefined}
          loading={redeem.isPending && redeem.variables?.code === code.trim()}
        >
          {l.redeem}
        </Button>
      </form>
    </Card>
  );
}
