import type { Schedule, ScheduleInput } from '@canopy/contract';
import { useState } from 'react';
import { Button, Card, Toggle } from '../../../components/ui/index.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useSchedules, useScheduleWrite } from '../api/schedules.ts';
import { actionLabels, scheduleMessages, schedulesPageBlock, scheduleWhen } from '../schedules-access.ts';
import { ScheduleForm } from './schedule-form.tsx';

const inputOf = (s: Schedule, enabled: boolean): ScheduleInput => ({
  action: s.action,
  time: s.time,
  weekday: s.weekday,
  timeZone: s.timeZone,
  message: s.message,
  enabled,
});

/** Schedules (/schedules): daily or weekly restarts, broadcasts and backups of the server, in a time zone. */
export function SchedulesPage() {
  const { profile } = useRegisteredProfile();
  const blocked = schedulesPageBlock(profile);
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">{scheduleMessages.title}</h1>
        <p className="mt-1 text-ink-muted">
          Restart the server, tell your players something or take a backup, every day or every week at a set time. A
          restart or a message is skipped while the server is offline; a run missed by more than an hour is skipped.
        </p>
      </header>
      {blocked ? (
        <Card data-testid="schedules-blocked" className="py-10 text-center">
          <p className="text-ink">{blocked}</p>
        </Card>
      ) : (
        <Schedules userId={profile.id} />
      )}
    </section>
  );
}

function Schedules({ userId }: { userId: string }) {
  const list = useSchedules(userId);
  const save = useScheduleWrite(userId);
  const [editing, setEditing] = useState<Schedule | null>(null);
  const submit = (input: ScheduleInput) =>
    save.mutate({ id: editing?.id, input }, { onSuccess: () => setEditing(null) });
  const count = list.data?.schedules.length ?? 0;
  return (
    <>
      <Card heading={list.data ? `Schedules (${count}/${list.data.max})` : 'Schedules'}>
        {list.isPending ? (
          <p className="text-ink-muted text-sm">Loading…</p>
        ) : list.isError ? (
          <p className="text-red-400 text-sm">{list.error.message}</p>
        ) : count === 0 ? (
          <p data-testid="schedules-empty" className="text-ink-muted text-sm">
            No schedules yet. Add one below.
          </p>
        ) : (
          <ul data-testid="schedule-list" className="flex flex-col gap-2">
            {list.data.schedules.map((s) => (
              <li
                key={s.id}
                data-testid="schedule-row"
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-line bg-canvas/60 px-4 py-3"
              >
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <p className="font-medium text-ink">
                    {actionLabels[s.action]}
                    {s.message && <span className="ml-2 text-ink-muted text-sm">“{s.message}”</span>}
                  </p>
                  <p className="text-ink-muted text-xs">
                    {scheduleWhen(s)}
                    {s.nextRunAt && ` · next ${new Date(s.nextRunAt).toLocaleString()}`}
                    {s.lastOutcome && ` · last run: ${s.lastOutcome}`}
                  </p>
                </div>
                <Toggle
                  label="Enabled"
                  hideLabel
                  checked={s.enabled}
                  onChange={(on) => save.mutate({ id: s.id, input: inputOf(s, on) })}
                />
                <Button variant="secondary" onClick={() => setEditing(s)}>
                  Edit
                </Button>
                <Button variant="danger" data-testid="schedule-delete" onClick={() => save.mutate({ id: s.id })}>
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {(editing || count < (list.data?.max ?? 0)) && (
        <ScheduleForm editing={editing} pending={save.isPending} onSubmit={submit} onCancel={() => setEditing(null)} />
      )}
    </>
  );
}
