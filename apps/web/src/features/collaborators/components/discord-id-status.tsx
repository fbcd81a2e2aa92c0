import { serverPageMessages } from '@canopy/contract';
import { Button, Spinner, useToast } from '../../../components/ui/index.ts';
import type { DiscordIdState } from '../discord-id-check.ts';

const tones: Record<DiscordIdState['status'], string> = {
  idle: 'text-ink-muted',
  validating: 'text-ink-muted',
  valid: 'text-emerald-300',
  not_found: 'text-amber-300',
  conflict: 'text-amber-300',
  invalid_id: 'text-red-400',
  error: 'text-red-400',
};

/** Copies the panel's address, so the owner can send it to someone who has not signed up yet. */
async function copyPanelUrl(): Promise<void> {
  if (!navigator.clipboard) throw new Error('clipboard unavailable');
  await navigator.clipboard.writeText(window.location.origin);
}

/** The line under the Discord ID field: what the live check found. */
export function DiscordIdStatus({ state }: { state: DiscordIdState }) {
  const toast = useToast();
  const invite = () =>
    copyPanelUrl().then(
      () => toast.success(serverPageMessages.panelUrlCopied),
      () => toast.error(serverPageMessages.panelUrlCopyFailed),
    );
  return (
    <div
      data-testid="discord-id-status"
      data-status={state.status}
      aria-live="polite"
      className={`flex min-h-5 flex-wrap items-center gap-2 text-xs ${tones[state.status]}`}
    >
      {state.status === 'idle' && 'Enter the Discord ID of the user to invite (17 to 20 digits).'}
      {state.status === 'validating' && (
        <>
          <Spinner size="sm" decorative /> Checking...
        </>
      )}
      {'message' in state && <span>{state.message}</span>}
      {state.status === 'valid' && state.user && !state.message.includes(state.user.DiscordUsername) && (
        <span data-testid="discord-id-user" className="font-medium text-ink">
          {state.user.DiscordUsername}
          {state.user.GrowID ? ` (${state.user.GrowID})` : ''}
        </span>
      )}
      {state.status === 'not_found' && (
        <Button size="sm" variant="secondary" data-testid="invite-copy-url" onClick={invite}>
          Invite them?
        </Button>
      )}
    </div>
  );
}
