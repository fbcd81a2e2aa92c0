import { type AdminHistoryPoint, type HistoryRange, historyMessages as text } from '@canopy/contract';
import { useState } from 'react';
import { HistoryLineChart } from '../../../components/history-line-chart.tsx';
import { TabBar } from '../../../components/ui/index.ts';
import { AdminLoadError } from '../components/admin-list-frame.tsx';
import { useAdminHistory } from './api/get-history.ts';

const ranges = (Object.keys(text.ranges) as HistoryRange[]).map((id) => ({ id, label: text.ranges[id] }));
const GB = 1024 ** 3;

/** The Dashboard's series, each a chart: counted per span (signups, credits) or sampled (the gauges). */
const series: { key: string; title: string; value: (p: AdminHistoryPoint) => number | null }[] = [
  { key: 'signups', title: text.signups, value: (p) => p.signups },
  { key: 'servers', title: text.serversOnline, value: (p) => p.serversOnline },
  { key: 'players', title: text.playersOnline, value: (p) => p.playersOnline },
  {
    key: 'storage',
    title: text.storage,
    value: (p) => (p.storageBytes === null ? null : Math.round((p.storageBytes / GB) * 100) / 100),
  },
  { key: 'credits', title: text.creditsSold, value: (p) => p.creditsSold },
];

/** Signups, servers and players online, storage and credits sold over the last hour, day or week. */
export function HistoryCharts({ autoRefresh }: { autoRefresh: boolean }) {
  const [range, setRange] = useState<HistoryRange>('day');
  const history = useAdminHistory(range, autoRefresh);
  const data = history.data;
  return (
    <section data-testid="admin-history" className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
      <h2 className="font-semibold text-ink">{text.title}</h2>
      <TabBar tabs={ranges} active={range} onChange={setRange} label={text.title} idPrefix="admin-history" />
      <div id={`admin-history-panel-${range}`} role="tabpanel" aria-busy={history.isPending}>
        {history.error && (
          <AdminLoadError testId="admin-history-error" error={history.error} fallback={text.loadFailed} />
        )}
        {data && (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {series.map((s) => (
              <HistoryLineChart
                key={s.key}
                testId={`admin-history-${s.key}`}
                title={s.title}
                from={data.from}
                to={data.to}
                stepMs={data.stepMs}
                points={data.points.map((p) => ({ at: p.at, value: s.value(p) }))}
              />
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
