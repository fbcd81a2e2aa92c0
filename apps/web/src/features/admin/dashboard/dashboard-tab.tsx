import { adminOverviewMessages, adminPanelMessages } from '@canopy/contract';
import { useState } from 'react';
import { Button, Toggle } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { AdminLoadError } from '../components/admin-list-frame.tsx';
import { useAdminStats } from './api/get-stats.ts';
import { statFigures } from './figures.ts';
import { HistoryCharts } from './history-charts.tsx';

/**
 * The Dashboard tab of /admin (admin document, section 2): the four platform figures, reloaded every 30 s while
 * auto refresh is on (the default), and a manual refresh; below, their history (issue 24).
 */
export function DashboardTab() {
  const [autoRefresh, setAutoRefresh] = useState(true);
  const stats = useAdminStats(autoRefresh);
  useErrorToast(stats.error);

  return (
    <div data-testid="admin-dashboard" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-line bg-surface px-4 py-3">
        <Toggle checked={autoRefresh} onChange={setAutoRefresh} label={adminOverviewMessages.autoRefresh} />
        <Button variant="secondary" size="sm" loading={stats.isFetching} onClick={() => void stats.refetch()}>
          {adminOverviewMessages.refresh}
        </Button>
      </div>
      {stats.error && (
        <AdminLoadError testId="admin-stats-error" error={stats.error} fallback={adminPanelMessages.fetchStats} />
      )}
      {/* A failed auto refresh keeps the last figures under the error; only a first failure has none to show. */}
      {stats.error && !stats.data ? null : (
        <dl
          aria-label={adminOverviewMessages.figuresLabel}
          aria-busy={stats.isPending}
          className="grid grid-cols-2 gap-3 lg:grid-cols-4"
        >
          {stats.data
            ? statFigures(stats.data).map((figure) => (
                <div
                  key={figure.key}
                  data-testid={`admin-stat-${figure.key}`}
                  className="flex flex-col gap-1 rounded-xl border border-line bg-surface p-4 sm:p-5"
                >
                  <dt className="text-ink-muted text-sm">{figure.label}</dt>
                  <dd className="font-bold text-2xl text-ink tabular-nums sm:text-3xl">{figure.value}</dd>
                </div>
              ))
            : [0, 1, 2, 3].map((slot) => (
                <div key={slot} className="h-24 animate-pulse rounded-xl border border-line bg-surface" />
              ))}
        </dl>
      )}
      <HistoryCharts autoRefresh={autoRefresh} />
    </div>
  );
}
