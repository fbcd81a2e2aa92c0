import type { CollaboratorPermission } from '@canopy/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useOwnedServer } from '../hooks/use-owned-server.ts';
import { useRegisteredProfile } from '../lib/profile-query.ts';
import { type ServerPageBlock, type ServerPageTexts, serverPageGate } from '../lib/server-page-gate.ts';
import { Card, Spinner } from './ui/index.ts';

export interface ServerPageGateProps {
  permission: CollaboratorPermission;
  texts: ServerPageTexts;
  children: ReactNode;
}

// Where the user can act on the message: creating or starting the server happens on the dashboard.
const dashboardLink: Partial<Record<ServerPageBlock, string>> = {
  'no-server': 'Go to Dashboard',
  offline: 'Open Dashboard',
};

/**
 * Renders `children` only while the user's server is ONLINE and the user may manage it; otherwise
 * the spec's status, permission or ban message. The children mount (and load) once it turns ONLINE.
 */
export function ServerPageGate({ permission, texts, children }: ServerPageGateProps) {
  const { profile } = useRegisteredProfile();
  const owned = useOwnedServer(profile.serverOwned);
  const gate = serverPageGate(profile, permission, owned.isPending ? undefined : owned.server?.status, texts);

  if (gate.kind === 'ready') return children;
  if (gate.kind === 'loading') return <ServerPageLoading />;
  return <ServerPageBlocked reason={gate.reason} message={gate.message} />;
}

/** While the server's status is not known yet. */
export function ServerPageLoading() {
  return (
    <div className="flex justify-center py-16 text-accent">
      <Spinner size="lg" label="Loading server status" />
    </div>
  );
}

/** Why a server page cannot be used now, with a way to the dashboard where that helps. */
export function ServerPageBlocked({ reason, message }: { reason: ServerPageBlock; message: string }) {
  const link = dashboardLink[reason];
  return (
    <Card data-testid="server-page-gate" data-reason={reason} className="py-10 text-center">
      <div className="flex flex-col items-center gap-4">
        {(reason === 'starting' || reason === 'stopping') && (
          <Spinner size="md" decorative className="text-amber-300" />
        )}
        <p data-testid="server-page-gate-message" className="max-w-md text-ink">
          {message}
        </p>
        {link && (
          <Link
            to="/dashboard"
            className="rounded-md bg-accent px-4 py-2 font-medium text-accent-ink text-sm hover:bg-accent-hover"
          >
            {link}
          </Link>
        )}
      </div>
    </Card>
  );
}
