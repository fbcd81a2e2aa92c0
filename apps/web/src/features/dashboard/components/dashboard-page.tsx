import { Card, ExpiryCountdown, UsageBar } from '../../../components/ui/index.ts';
import { hasServer } from '../../../lib/owned-server.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';

/** A first dashboard: GrowID, server name, server time and storage (the full one comes later). */
export function DashboardPage() {
  const { profile } = useRegisteredProfile();
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">Dashboard</h1>
        <p className="mt-1 text-ink-muted">
          Welcome back,{' '}
          <span data-testid="dashboard-growid" className="font-medium text-ink">
            {profile.growId}
          </span>
        </p>
      </header>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card heading="Server">
          <p data-testid="dashboard-server" className="text-ink">
            {hasServer(profile.serverOwned) ? profile.serverOwned : 'No server'}
          </p>
          <p className="mt-3 text-ink-muted text-sm">
            Server time: <ExpiryCountdown estimatedExpiry={profile.estimatedExpiry} />
          </p>
        </Card>
        <Card heading="Storage">
          <UsageBar usedMB={profile.storageUsedMB} limitMB={profile.storageLimitMB} />
        </Card>
      </div>
    </section>
  );
}
