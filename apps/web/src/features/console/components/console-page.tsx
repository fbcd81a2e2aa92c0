import type { ServerStatus } from '@canopy/contract';
import { Button, Card, Spinner, StatusPill } from '../../../components/ui/index.ts';
import { useOwnedServer } from '../../../hooks/use-owned-server.ts';
import { useServerSocket, useSocketState } from '../../../hooks/use-server-socket.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { connectionLabel, consoleAccountBlock, consoleBlock } from '../console-access.ts';
import { useConsoleLog } from '../use-console-log.ts';
import { CommandForm } from './command-form.tsx';
import { ConsoleLogView } from './console-log-view.tsx';

const connectionDots = {
  OPEN: 'bg-emerald-400',
  CONNECTING: 'bg-amber-400 animate-pulse',
  CLOSING: 'bg-amber-400',
  CLOSED: 'bg-slate-500',
} as const;

/** The console (spec section 2): the live log of the server and a command line, behind its access rules. */
export function ConsolePage() {
  const { profile } = useRegisteredProfile();
  const owned = useOwnedServer(profile.serverOwned);
  const socket = useServerSocket();
  const socketState = useSocketState();
  const status: ServerStatus | null = owned.server && !owned.isPending ? owned.server.status : null;
  // The stream is wanted whenever the account may use the console: a stopped server's last lines stay readable.
  const { lines, clear, denied } = useConsoleLog(consoleAccountBlock(profile) === null, profile);
  const blocked = consoleBlock(profile, status, denied);

  return (
    <section className="flex flex-col gap-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-bold text-2xl text-ink">Console</h1>
        <div className="flex items-center gap-3">
          {owned.server && (
            <span data-testid="console-status">
              {owned.isPending ? (
                <Spinner size="sm" label="Loading server status" />
              ) : (
                <StatusPill status={owned.server.status} />
              )}
            </span>
          )}
          <span
            data-testid="console-connection"
            data-state={socketState}
            className="inline-flex items-center gap-1.5 text-ink-muted text-xs"
          >
            <span aria-hidden="true" className={`size-2 rounded-full ${connectionDots[socketState]}`} />
            {connectionLabel(socketState)}
          </span>
          <Button variant="secondary" size="sm" data-testid="console-clear" onClick={clear}>
            Clear
          </Button>
        </div>
      </header>
      <Card className="flex flex-col gap-3">
        <ConsoleLogView lines={lines} blockedReason={blocked} />
        <CommandForm
          enabled={!blocked && socketState === 'OPEN'}
          disabledHint={blocked ? 'The console is unavailable.' : 'Waiting for the connection...'}
          onSend={(command) => socket?.send({ type: 'console_command', payload: { command } }) ?? false}
        />
      </Card>
    </section>
  );
}
