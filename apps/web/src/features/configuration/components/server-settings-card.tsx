import { configurationMessages as c } from '@canopy/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { Button, Card, Input, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useServerConfig, useSetFarmDelay } from '../api/server-config.ts';

/** Server Settings: the autofarm delay in ms (profile's server.config.autofarmDelay) and Save Settings. */
export function ServerSettingsCard({ userId }: { userId: string }) {
  const config = useServerConfig(userId);
  useErrorToast(config.error);
  const save = useSetFarmDelay(userId);
  const [delay, setDelay] = useState('');
  const [error, setError] = useState<string | undefined>();
  const loaded = config.data?.autofarmDelay;

  useEffect(() => {
    if (loaded !== undefined) setDelay(String(loaded));
  }, [loaded]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const amount = delay.trim() === '' ? Number.NaN : Number(delay);
    if (!Number.isFinite(amount)) return setError(c.invalidFarmDelay);
    setError(undefined);
    save.mutate(amount);
  }

  return (
    <Card heading="Server Settings" data-testid="server-settings-card">
      {config.isPending ? (
        <SkeletonRows rows={2} />
      ) : config.isError ? (
        // In place of the form: an empty delay field would only lead to 'must be a valid number'.
        <p className="text-red-400 text-sm">{config.error.message}</p>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-4">
          <Input
            label="Autofarm Delay (ms)"
            inputMode="numeric"
            value={delay}
            error={error}
            hint="Time between autofarm actions, in milliseconds."
            onChange={(event) => setDelay(event.target.value)}
          />
          <div>
            <Button type="submit" loading={save.isPending}>
              Save Settings
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
