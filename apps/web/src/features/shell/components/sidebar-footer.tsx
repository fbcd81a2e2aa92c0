import type { Profile } from '@canopy/contract';
import { Avatar, Button, StatusPill } from '../../../components/ui/index.ts';
import { useOwnedServer } from '../../../hooks/use-owned-server.ts';
import { hasServer } from '../../../lib/owned-server.ts';

/** Sidebar footer (spec 2.5): avatar, username, '#discriminator', the server and a Logout button. */
export function SidebarFooter({ profile, onLogout }: { profile: Profile; onLogout: () => void }) {
  const { server, isPending } = useOwnedServer(profile.serverOwned);
  return (
    <div className="flex flex-col gap-3 border-line border-t p-4">
      <div className="flex items-center gap-3">
        <Avatar user={profile} size={40} />
        <div className="min-w-0">
          <p data-testid="sidebar-username" className="truncate font-medium text-ink text-sm">
            {profile.username}
          </p>
          <p data-testid="sidebar-discriminator" className="text-ink-muted text-xs">
            #{profile.discriminator}
          </p>
        </div>
      </div>
      <div data-testid="sidebar-server" className="flex items-center justify-between gap-2 text-sm">
        {hasServer(profile.serverOwned) ? (
          <>
            <span className="truncate text-ink">{profile.serverOwned}</span>
            {server && !isPending && <StatusPill status={server.status} />}
          </>
        ) : (
          <span className="text-ink-muted">No server</span>
        )}
      </div>
      <Button variant="secondary" size="sm" onClick={onLogout}>
        Logout
      </Button>
    </div>
  );
}
