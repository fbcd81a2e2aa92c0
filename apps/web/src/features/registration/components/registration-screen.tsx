import { registerRequestSchema, type SessionUser } from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner, Button, Card, ConfirmDialog, Input, useToast } from '../../../components/ui/index.ts';
import { useRegister } from '../api/register.ts';

// The form validates only the field the user types; the account fields come from the session.
const formSchema = registerRequestSchema.pick({ growId: true });
type FormValues = { growId: string };

/** Registration screen for a signed-in user without a GrowID (spec 2.2 step 5, 2.4). */
export function RegistrationScreen({ user, onLogout }: { user: SessionUser; onLogout: () => void }) {
  const toast = useToast();
  const register = useRegister();
  const [pending, setPending] = useState<string | null>(null);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    mode: 'onChange',
    defaultValues: { growId: '' },
  });
  const { errors, isValid } = form.formState;

  const confirm = () => {
    if (!pending) return;
    register.mutate(
      { discordId: user.id, discordUsername: user.username, growId: pending },
      {
        onSuccess: () => {
          toast.success(`GrowID "${pending}" registered successfully.`);
          setPending(null);
        },
        onError: (error) => {
          toast.error(error.message);
          setPending(null);
        },
      },
    );
  };

  return (
    <main className="flex min-h-screen items-center justify-center px-6 py-12">
      <Card className="w-full max-w-md">
        <h1 className="font-bold text-2xl text-ink">Register your GrowID</h1>
        <p className="mt-2 text-ink-muted text-sm">
          Welcome, {user.username}! Choose the GrowID you will use in game. It is permanent: it cannot be changed later.
        </p>
        <form
          noValidate
          className="mt-6 flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) => {
            register.reset();
            setPending(values.growId);
          })}
        >
          <Input
            label="GrowID"
            autoComplete="off"
            autoFocus
            maxLength={20}
            placeholder="e.g. Builder123"
            error={errors.growId?.message}
            {...form.register('growId')}
          />
          {register.isError && <Banner tone="danger">{register.error.message}</Banner>}
          <Button type="submit" disabled={!isValid} loading={register.isPending}>
            Register
          </Button>
        </form>
        <button type="button" onClick={onLogout} className="mt-4 text-ink-muted text-sm underline hover:text-ink">
          Logout
        </button>
      </Card>
      <ConfirmDialog
        open={pending !== null}
        title="Confirm GrowID"
        message={
          <>
            Register <strong>{pending}</strong> as your GrowID? The GrowID cannot be changed later.
          </>
        }
        confirmLabel="Yes, register"
        loading={register.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </main>
  );
}
