import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

// The theme's colours as SVG attributes (as the storage charts do); no animation: a refetch would replay it.
const colors = { line: '#10b981', grid: '#334155', tick: '#94a3b8', tooltip: '#0f172a' };
const axisTick = { fill: colors.tick, fontSize: 11 };
const tooltipStyle = { backgroundColor: colors.tooltip, border: `1px solid ${colors.grid}`, borderRadius: 8 };

/** A point of a history series: its span start (epoch ms) and value (null: nothing sampled then, a gap). */
export interface HistoryValue {
  at: number;
  value: number | null;
}

/** Time labels: hours and minutes within a day, the date besides for a week. */
const timeLabel = (stepMs: number) => (at: number) =>
  new Date(at).toLocaleString(
    undefined,
    stepMs >= 3_600_000 ? { month: 'short', day: 'numeric', hour: '2-digit' } : { hour: '2-digit', minute: '2-digit' },
  );

/** One history series over [from, to] as a line; a span with no sample is a gap. */
export function HistoryLineChart(props: {
  title: string;
  points: HistoryValue[];
  from: number;
  to: number;
  stepMs: number;
  testId?: string;
}) {
  const label = timeLabel(props.stepMs);
  const last = props.points.findLast((p) => p.value !== null)?.value;
  return (
    <figure data-testid={props.testId} className="flex flex-col gap-1">
      <figcaption className="flex justify-between text-ink-muted text-sm">
        <span>{props.title}</span>
        <span className="text-ink tabular-nums">{last ?? '–'}</span>
      </figcaption>
      <div role="img" aria-label={`${props.title}, latest ${last ?? 'none'}`}>
        <ResponsiveContainer width="100%" height={140}>
          <LineChart data={props.points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={[props.from, props.to]}
              tickFormatter={label}
              tick={axisTick}
              tickLine={false}
              minTickGap={32}
            />
            <YAxis tick={axisTick} tickLine={false} axisLine={false} width={48} />
            <Tooltip contentStyle={tooltipStyle} labelFormatter={(at) => label(Number(at))} />
            <Line
              dataKey="value"
              name={props.title}
              stroke={colors.line}
              dot={false}
              strokeWidth={2}
              connectNulls={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
