import { type Schedule, type ScheduleInput, scheduleInputSchema } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button, Card, Input, Select, useToast } from '../../../components/ui/index.ts';
import { actionLabels, weekdays } from '../schedules-access.ts';

/** The form's fields: the weekday is a select's text ('' = every day) until it is sent. */
interface FormValues {
  action: ScheduleInput['action'];
  time: string;
  weekday: string;
  timeZone: string;
  message: string;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const zones = (): string[] => {
  // Every zone the browser knows, when it can list them; the api validates whatever is sent.
  const list = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([browserZone(), 'UTC', ...list])];
};

/** Creates a schedule, or edits `editing`; checked with the contract's schema before it is sent. */
export function ScheduleForm(props: {
  editing: Schedule | null;
  pending: boolean;
  onSubmit: (input: ScheduleInput) => void;
  onCancel: () => void;
}) {
  const toast = useToast();
  const { editing } = props;
  const form = useForm<FormValues>({
    values: {
      action: editing?.action ?? 'restart',
      time: editing?.time ?? '04:00',
      weekday: editing?.weekday === null || editing === null ? '' : String(editing.weekday),
      timeZone: editing?.timeZone ?? browserZone(),
      message: editing?.message ?? '',
    },
  });
  const action = form.watch('action');
  const submit = form.handleSubmit((v) => {
    const parsed = scheduleInputSchema.safeParse({
      action: v.action,
      time: v.time,
      weekday: v.weekday === '' ? null : Number(v.weekday),
      timeZone: v.timeZone,
      message: v.action === 'broadcast' ? v.message : null,
      enabled: editing?.enabled ?? true,
    });
    if (!parsed.success) {
      toast.error(parsed.error.issues[0]?.message ?? 'Invalid schedule.');
      return;
    }
    props.onSubmit(parsed.data);
  });

  return (
    <Card heading={editing ? 'Edit Schedule' : 'New Schedule'}>
      <form noValidate onSubmit={submit} data-testid="schedule-form" className="grid gap-4 sm:grid-cols-2">
        <Select
          label="Action"
          data-testid="schedule-action"
          options={Object.entries(actionLabels).map(([value, label]) => ({ value, label }))}
          {...form.register('action')}
        />
        <Select
          label="Repeat"
          data-testid="schedule-weekday"
          options={[{ value: '', label: 'Every day' }, ...weekdays.map((d, i) => ({ value: String(i), label: d }))]}
          {...form.register('weekday')}
        />
        <Input label="Time" type="time" data-testid="schedule-time" {...form.register('time')} />
        <Select label="Time zone" data-testid="schedule-zone" options={zones()} {...form.register('timeZone')} />
        {action === 'broadcast' && (
          <Input
            label="Message"
            className="sm:col-span-2"
            maxLength={200}
            placeholder="e.g. The server restarts in 5 minutes."
            data-testid="schedule-message"
            {...form.register('message')}
          />
        )}
        <div className="flex gap-3 sm:col-span-2">
          <Button type="submit" data-testid="schedule-save" loading={props.pending}>
            {editing ? 'Save Schedule' : 'Add Schedule'}
          </Button>
          {editing && (
            <Button type="button" variant="secondary" onClick={props.onCancel}>
              Cancel
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
