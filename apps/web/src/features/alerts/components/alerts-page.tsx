import { alertMessages, SERVER_ALERT_EVENTS, type ServerAlertEvent, serverAlertEventLabels } from '@canopy/contract';
import { useEffect, useState } from 'react';
import { Button, Card, Input, SkeletonRows, Toggle } from '../../../components/ui/index.ts';
import { hasServer } from '../../../lib/owned-server.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useAlertsAction, useServerAlerts } from '../api/alerts.ts';

/** Discord Alerts: the owner points a Discord webhook at their server's events and tries it with Test. */
export function AlertsPage() {
  const { profile } = useRegisteredProfile();
  // Owner only, like Collaborators: a collaborator, or a user without a server, is told why.
  const blocked = profile.isCollaborator
    ? alertMessages.onlyOwner
    : hasServer(profile.serverOwned)
      ? null
      : alertMessages.needServer;
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">Discord Alerts</h1>
        <p className="mt-1 text-ink-muted">
          Hear in a Discord channel when your server starts, stops, crashes, runs out of time or is backed up.
        </p>
      </header>
      {blocked ? (
        <Card>
          <p className="text-ink-muted">{blocked}</p>
        </Card>
      ) : (
        <AlertsForm userId={profile.id} />
      )}
    </section>
  );
}

function AlertsForm({ userId }: { userId: string }) {
  const current = useServerAlerts(userId);
  const save = useAlertsAction(userId, 'save');
  const remove = useAlertsAction(userId, 'remove');
  const test = useAlertsAction(userId, 'test');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ServerAlertEvent[]>([]);
  useEffect(() => {
    if (current.data) setEvents(current.data.events);
  }, [current.data]);

  if (current.isPending) return <SkeletonRows rows={4} />;
  if (current.isError) return <p className="text-red-400">{current.error.message}</p>;
  const { configured, urlHint } = current.data;
  const toggle = (event: ServerAlertEvent, on: boolean) =>
    setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));

  return (
    <Card heading="Webhook">
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ url: url.trim() || undefined, events }, { onSuccess: () => setUrl('') });
        }}
      >
        <Input
          label="Discord webhook URL"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={urlHint ?? 'https://discord.com/api/webhooks/…'}
          hint={
            configured
              ? `Set: ${urlHint}. Leave empty to keep it.`
              : 'In Discord: channel settings › Integrations › Webhooks › New Webhook › Copy Webhook URL.'
          }
          autoComplete="off"
        />
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 font-medium text-ink text-sm">Events</legend>
          {SERVER_ALERT_EVENTS.map((event) => (
            <Toggle
              key={event}
              label={serverAlertEventLabels[event]}
              checked={events.includes(event)}
              onChange={(on) => toggle(event, on)}
            />
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={save.isPending} disabled={!configured && !url.trim()}>
            Save
          </Button>
          <Button
            type="button"
            variant="secondary"
            loading={test.isPending}
            disabled={!configured}
            onClick={() => test.mutate(undefined)}
          >
            Test
          </Button>
          {configured && (
            <Button type="button" variant="danger" loading={remove.isPending} onClick={() => remove.mutate(undefined)}>
              Remove
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
