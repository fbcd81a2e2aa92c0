import { adminPanelMessages, type StorageAnalytics, adminOverviewMessages as text } from '@canopy/contract';
import { Card, SkeletonRows, UsageBar } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { formatSize } from '../../../lib/format.ts';
import { AdminLoadError } from '../components/admin-list-frame.tsx';
import { useStorageAnalytics } from './api/get-storage.ts';
import { BucketChart, ConsumerChart } from './storage-charts.tsx';
import { bucketRows, consumerRows, formatPercent } from './storage-view.ts';
import { TopConsumersTable } from './top-consumers-table.tsx';

/**
 * The Storage Analytics tab of /admin (admin document, sections 2 and 9): totals, the distribution over four
 * size buckets and the top 10 consumers. Lazy-loaded, because only this tab needs the charts library.
 */
export function StorageTab() {
  const analytics = useStorageAnalytics();
  useErrorToast(analytics.error);

  const error = analytics.error && (
    <AdminLoadError testId="admin-storage-error" error={analytics.error} fallback={adminPanelMessages.fetchStorage} />
  );
  if (!analytics.data) return error || <SkeletonRows rows={6} />;
  return (
    <div className="flex flex-col gap-4">
      {error}
      <StorageReport data={analytics.data} />
    </div>
  );
}

function StorageReport({ data }: { data: StorageAnalytics }) {
  const totals = [
    { key: 'used', label: text.storageTotalUsed, value: formatSize(data.totalUsedMB) },
    { key: 'capacity', label: text.storageTotalCapacity, value: formatSize(data.totalCapacityMB) },
    { key: 'average', label: text.storageAverage, value: formatSize(data.averageUsedMB) },
    { key: 'percent', label: text.storageOverall, value: formatPercent(data.percentUsed) },
  ];
  const consumers = consumerRows(data.topConsumers);
  return (
    <div data-testid="admin-storage" className="flex flex-col gap-5">
      <Card>
        <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {totals.map((total) => (
            <div key={total.key} data-testid={`storage-total-${total.key}`} className="flex flex-col gap-1">
              <dt className="text-ink-muted text-sm">{total.label}</dt>
              <dd className="font-bold text-ink text-xl tabular-nums sm:text-2xl">{total.value}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-5">
          <UsageBar usedMB={data.totalUsedMB} limitMB={data.totalCapacityMB} label={text.storageUsedOfCapacity} />
        </div>
        <p className="mt-2 text-ink-muted text-xs">{text.storageAccounts(data.accounts)}</p>
      </Card>
      <div className="flex flex-col gap-5">
        <Card heading={text.storageDistribution}>
          <BucketChart rows={bucketRows(data)} />
        </Card>
        <Card heading={text.storageTopConsumers}>
          <div className="flex flex-col gap-4">
            {consumers.length > 0 && <ConsumerChart rows={consumers} />}
            <TopConsumersTable rows={consumers} />
          </div>
        </Card>
      </div>
    </div>
  );
}
