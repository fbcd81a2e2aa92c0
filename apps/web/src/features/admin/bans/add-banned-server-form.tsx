import {
  BAN_REASON_MAX,
  type BanServerNameRequest,
  banServerNameSchema,
  adminBanLabels as l,
  SERVER_NAME_MAX,
} from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button, Input } from '../../../components/ui/index.ts';

export interface AddBannedServerFormProps {
  /** Sends the ban; resolves true when the api accepted it (the form then empties). */
  onAdd: (request: BanServerNameRequest) => Promise<boolean>;
  busy: boolean;
}

/** The add form of Banned Servers: serverName and reason, both required (admin document, section 5). */
export function AddBannedServerForm({ onAdd, busy }: AddBannedServerFormProps) {
  const form = useForm<BanServerNameRequest>({
    resolver: zodResolver(banServerNameSchema),
    defaultValues: { serverName: '', reason: '' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (request) => {
    if (await onAdd(request)) form.reset();
  });
  return (
    <form
      noValidate
      aria-label={l.addHeading}
      data-testid="banned-server-add"
      onSubmit={(event) => {
        if (busy) event.preventDefault();
        else void submit(event);
      }}
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4 md:flex-row md:items-start"
    >
      <Input
        label={l.serverName}
        className="md:w-56"
        autoComplete="off"
        spellCheck={false}
        maxLength={SERVER_NAME_MAX}
        placeholder={l.serverNamePlaceholder}
        error={errors.serverName?.message}
        {...form.register('serverName')}
      />
      <Input
        label={l.reason}
        className="flex-1"
        autoComplete="off"
        maxLength={BAN_REASON_MAX}
        placeholder={l.reasonPlaceholder}
        error={errors.reason?.message}
        {...form.register('reason')}
      />
      <Button type="submit" className="md:mt-7" loading={busy}>
        {l.add}
      </Button>
    </form>
  );
}
