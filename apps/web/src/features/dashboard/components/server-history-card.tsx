import { type HistoryRange, historyMessages as text } from '@canopy/contract';
import { useState } from 'react';
import { HistoryLineChart } from '../../../components/history-line-chart.tsx';
import { Card, TabBar } from '../../../components/ui/index.ts';
import { fillSpans } from '../../../lib/history-series.ts';
import { useServerHistory } from '../api/get-server-history.ts';

const ranges = (Object.keys(text.ranges) as HistoryRange[]).map((id) => ({ id, label: text.ranges[id] }));
const MB = 1024 * 1024;

/**
 * Players, CPU and memory of the caller's server over the last hour, day or week. Shown to whoever the api lets
 * read them (the owner, a collaborator with server:actions): a refusal hides the card.
 */
export function ServerHistoryCard({ userId }: { userId: string }) {
  const [range, setRange] = useState<HistoryRange>('hour');
  const history = useServerHistory(userId, range);
  if (history.error) return null;
  const data = history.data;
  return (
    <Card heading={text.title}>
      <div data-testid="server-history" className="flex flex-col gap-4">
        <TabBar tabs={ranges} active={range} onChange={setRange} label={text.title} idPrefix="server-history" />
        <div id={`server-history-panel-${range}`} role="tabpanel" aria-busy={history.isPending}>
          {data && data.points.length === 0 && <p className="text-ink-muted text-sm">{text.empty}</p>}
          {data && data.points.length > 0 && (
            <div className="grid gap-4 md:grid-cols-3">
              <HistoryLineChart
                testId="history-players"
                title={text.players}
                {...data}
                points={fillSpans(data.points, data, (p) => p.players)}
              />
              <HistoryLineChart
                testId="history-cpu"
                title={text.cpu}
                {...data}
                points={fillSpans(data.points, data, (p) => p.cpuPercent)}
              />
              <HistoryLineChart
                testId="history-memory"
                title={text.memory}
                {...data}
                points={fillSpans(data.points, data, (p) =>
                  p.memoryBytes === null ? null : Math.round((p.memoryBytes / MB) * 10) / 10,
                )}
              />
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}
