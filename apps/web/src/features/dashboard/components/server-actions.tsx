import type { Profile, ServerStatus, Settings } from '@canopy/contract';
import { Button, type ButtonVariant } from '../../../components/ui/index.ts';
import { useServerAction } from '../api/server-action.ts';
import { powerActions, powerControls } from '../server-controls.ts';

export interface ServerActionsProps {
  serverName: string;
  status: ServerStatus;
  profile: Profile;
  settings: Settings;
  /** Disables every action (the status is still loading). */
  disabled?: boolean;
  /** The server time ran out: start and restart are refused. */
  timeRanOut?: boolean;
}

const variants: Record<string, ButtonVariant> = { start: 'primary', stop: 'secondary', restart: 'secondary' };

/** Start, Stop and Restart with the enable rules of server-controls.ts; a disabled one carries its reason as tooltip. */
export function ServerActions({
  serverName,
  status,
  profile,
  settings,
  disabled = false,
  timeRanOut = false,
}: ServerActionsProps) {
  const { run, pendingAction } = useServerAction(profile.id);
  const controls = powerControls(status, profile, settings, timeRanOut);
  // Tooltips do not reach touch screens, so the reasons are also written under the buttons.
  const reasons = [...new Set(Object.values(controls).flatMap((c) => (c.reason ? [c.reason] : [])))];
  return (
    <div className="flex flex-col gap-2">
      <fieldset aria-label="Server actions" className="flex flex-wrap gap-2">
        {powerActions.map(({ action, label }) => {
          const control = controls[action];
          return (
            <Button
              key={action}
              variant={variants[action]}
              data-testid={`server-${action}`}
              disabled={disabled || !control.enabled}
              title={control.reason ?? undefined}
              loading={pendingAction === action}
              onClick={() => run(serverName, action)}
              className="min-w-24"
            >
              {label}
            </Button>
          );
        })}
      </fieldset>
      {reasons.map((reason) => (
        <p key={reason} data-testid="server-actions-reason" className="text-ink-muted text-xs">
          {reason}
        </p>
      ))}
    </div>
  );
}
