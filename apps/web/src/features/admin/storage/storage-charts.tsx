import { adminOverviewMessages as text } from '@canopy/contract';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type BucketRow, type ConsumerRow, wrapLabel } from './storage-view.ts';

// No bar animation: the figures are read, not watched, and a reload would replay it.
// SVG attributes take colours, not Tailwind classes: the theme's accent (emerald-500) and slate tones.
const colors = { accent: '#10b981', limit: '#475569', grid: '#334155', tick: '#94a3b8', tooltip: '#0f172a' };
const axisTick = { fill: colors.tick, fontSize: 12 };
const tooltipStyle = { backgroundColor: colors.tooltip, border: `1px solid ${colors.grid}`, borderRadius: 8 };

/** An x-axis label broken into short lines, so the four bucket labels fit side by side on a phone. */
function WrappedTick({ x, y, payload }: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) {
  const lines = wrapLabel(String(payload?.value ?? ''), 10);
  return (
    <text x={x} y={y} textAnchor="middle" fill={axisTick.fill} fontSize={11}>
      {lines.map((line, index) => (
        <tspan key={line} x={x} dy={index === 0 ? 12 : 13}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/** Accounts per storage size bucket, as vertical bars; the counts are in the label for screen readers. */
export function BucketChart({ rows }: { rows: BucketRow[] }) {
  const summary = rows.map((row) => `${row.label}: ${row.accounts}`).join(', ');
  return (
    <div role="img" aria-label={`${text.storageDistributionChart}. ${summary}`} data-testid="storage-bucket-chart">
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
          <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={WrappedTick} interval={0} tickLine={false} height={52} />
          <YAxis allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} />
          <Tooltip cursor={{ fill: 'rgba(148,163,184,0.08)' }} contentStyle={tooltipStyle} />
          <Bar
            dataKey="accounts"
            name={text.storageAccountsAxis}
            fill={colors.accent}
            radius={[4, 4, 0, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** MB used against the limit of the top consumers, as horizontal bars; the table below has the exact numbers. */
export function ConsumerChart({ rows }: { rows: ConsumerRow[] }) {
  return (
    <div role="img" aria-label={text.storageTopChart} data-testid="storage-consumer-chart">
      <ResponsiveContainer width="100%" height={rows.length * 36 + 60}>
        <BarChart
          data={rows}
          layout="vertical"
          margin={{ top: 0, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tick={axisTick} tickLine={false} />
          <YAxis type="category" dataKey="name" width={96} tick={axisTick} tickLine={false} interval={0} />
          <Tooltip cursor={{ fill: 'rgba(148,163,184,0.08)' }} contentStyle={tooltipStyle} />
          <Legend wrapperStyle={{ fontSize: 12, color: colors.tick }} />
          <Bar
            dataKey="usedMB"
            name={text.storageUsed}
            fill={colors.accent}
            radius={[0, 4, 4, 0]}
            isAnimationActive={false}
          />
          <Bar
            dataKey="limitMB"
            name={text.storageLimit}
            fill={colors.limit}
            radius={[0, 4, 4, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
