import { Card, UsageBar } from '../../../components/ui/index.ts';
import { useOwnedServer } from '../../../hooks/use-owned-server.ts';
import { hasServer } from '../../../lib/owned-server.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useCrashLoopFollow, useServerTimePhase } from '../use-server-time-phase.ts';
import { DashboardBanners } from './dashboard-banners.tsx';
import { NoServerCard } from './no-server-card.tsx';
import { ServerCard } from './server-card.tsx';
import { ServerHistoryCard } from './server-history-card.tsx';
import { ServerTimeCard } from './server-time-card.tsx';
import { SocketIndicator } from './socket-indicator.tsx';

/** The dashboard (spec 2.6): banners, the server card or Create Server, server time and storage. */
export function DashboardPage() {
  const { profile, settings } = useRegisteredProfile();
  const owned = useOwnedServer(profile.serverOwned);
  const phase = useServerTimePhase(profile.serverTime, hasServer(profile.serverOwned));
  const timeRanOut = phase === 'grace' || phase === 'over';
  useCrashLoopFollow(profile.serverCrashLoop, owned.isPending ? undefined : owned.server?.status);
  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-bold text-2xl text-ink">Dashboard</h1>
          <p className="mt-1 text-ink-muted">
            Welcome back,{' '}
            <span data-testid="dashboard-growid" className="font-medium text-ink">
              {profile.growId}
            </span>
          </p>
        </div>
        <SocketIndicator />
      </header>
      <DashboardBanners
        profile={profile}
        settings={settings}
        loadError={owned.error}
        status={owned.isPending ? undefined : owned.server?.status}
        phase={phase}
      />
      <div className="grid items-start gap-4 lg:grid-cols-3">
        <div className="flex flex-col gap-4 lg:col-span-2">
          {owned.server ? (
            <ServerCard
              server={owned.server}
              loading={owned.isPending}
              profile={profile}
              settings={settings}
              timeRanOut={timeRanOut}
              onRetry={owned.retry}
              retrying={owned.isFetching}
            />
          ) : (
            <NoServerCard profile={profile} settings={settings} timeRanOut={timeRanOut} />
          )}
          {owned.server && <ServerHistoryCard userId={profile.id} />}
        </div>
        <div className="flex flex-col gap-4">
          <ServerTimeCard profile={profile} settings={settings} timeRanOut={timeRanOut} />
          <Card heading="Storage">
            <UsageBar label="Storage used" usedMB={profile.storageUsedMB} limitMB={profile.storageLimitMB} />
          </Card>
        </div>
      </div>
    </section>
  );
}
