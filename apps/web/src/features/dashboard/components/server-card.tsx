import type { Profile, ServerStatus, Settings, StatusFeedEntry } from '@canopy/contract';
import { Button, Card, Spinner, StatusPill } from '../../../components/ui/index.ts';
import { isTransitional } from '../server-controls.ts';
import { DeleteServerButton } from './delete-server-button.tsx';
import { ServerActions } from './server-actions.tsx';

export interface ServerCardProps {
  server: StatusFeedEntry;
  /** True until the status feed has answered once. */
  loading: boolean;
  profile: Profile;
  settings: Settings;
  /** The server time ran out (grace period or later): start and restart are refused. */
  timeRanOut: boolean;
  /** Loads the status feed again; offered while the status is UNKNOWN. */
  onRetry: () => void;
  retrying: boolean;
}

const pendingTexts: Partial<Record<ServerStatus, string>> = {
  STARTING: 'The server is starting…',
  STOPPING: 'The server is stopping…',
  RESTARTING: 'The server is restarting…',
};

/** The server card of spec 2.6: name, status, players, version, the power actions and Delete Server. */
export function ServerCard({ server, loading, profile, settings, timeRanOut, onRetry, retrying }: ServerCardProps) {
  const pending = !loading && isTransitional(server.status);
  // A failed status fetch knows neither players nor version.
  const unknown = loading || server.status === 'UNKNOWN';
  return (
    <Card
      data-testid="server-card"
      data-pending={pending || undefined}
      aria-busy={pending || undefined}
      className={pending ? 'ring-1 ring-amber-500/40' : ''}
      heading={
        <span data-testid="server-name" className="break-all">
          {server.name}
        </span>
      }
      actions={
        <span data-testid="server-status">
          {loading ? <Spinner size="sm" label="Loading server status" /> : <StatusPill status={server.status} />}
        </span>
      }
    >
      <dl className="grid grid-cols-2 gap-3">
        <Fact label="Players" testId="server-players" value={unknown ? '–' : String(server.players)} />
        <Fact label="Version" testId="server-version" value={unknown ? '–' : server.version} />
      </dl>
      {pending && (
        <p data-testid="server-pending" className="mt-4 flex items-center gap-2 text-amber-300 text-sm">
          <Spinner size="sm" decorative />
          {pendingTexts[server.status as ServerStatus]}
        </p>
      )}
      <div className="mt-5 flex flex-wrap items-start justify-between gap-3 border-line/60 border-t pt-4">
        <ServerActions
          serverName={server.name}
          status={server.status}
          profile={profile}
          settings={settings}
          disabled={loading}
          timeRanOut={timeRanOut}
        />
        <DeleteServerButton serverName={server.name} profile={profile} busy={pending || loading} />
      </div>
      {!loading && server.status === 'UNKNOWN' && (
        <Button
          variant="secondary"
          data-testid="server-status-retry"
          className="mt-3"
          loading={retrying}
          onClick={onRetry}
        >
          Retry loading status
        </Button>
      )}
    </Card>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg bg-surface-raised/60 px-3 py-2">
      <dt className="text-ink-muted text-xs uppercase tracking-wide">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 font-semibold text-ink tabular-nums">
        {value}
      </dd>
    </div>
  );
}
