import type { AdminHistoryResponse, HistoryRange, ServerHistoryResponse } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import { rangeWindow, resolutions, rollUp, type Sample, spanOf } from './downsample.ts';
import { historyRepo, type PlatformSample } from './history.repo.ts';

/**
 * The rows of resolution `stepMs` from `from` on, completed with the spans the scheduler has not rolled up yet
 * (the current one, a span within its grace): those come from the finer resolution, rolled up here the same way.
 */
async function series<T extends { at: number }>(
  read: (stepMs: number, from: number) => Promise<T[]>,
  roll: (points: T[], stepMs: number) => T[],
  stepMs: number,
  from: number,
): Promise<T[]> {
  const rows = await read(stepMs, from);
  const finer = resolutions.find((r) => r.stepMs === stepMs)?.from;
  if (finer === undefined) return rows;
  const last = rows.at(-1);
  const rest = await series(read, roll, finer, last ? last.at + stepMs : from);
  return [...rows, ...roll(rest, stepMs)];
}

/** A server's players, CPU and memory over the range. */
export async function serverHistory(
  ctx: AppContext,
  serverId: string,
  range: HistoryRange,
): Promise<ServerHistoryResponse> {
  const { stepMs, from, to } = rangeWindow(range, ctx.now());
  const points = await series<Sample>((s, f) => historyRepo.serverRows(ctx.db, serverId, s, f), rollUp, stepMs, from);
  return {
    range,
    stepMs,
    from,
    to,
    points: points.map((p) => ({
      at: p.at,
      players: p.players,
      cpuPercent: p.cpu === null ? null : Math.round(p.cpu * 10) / 10,
      memoryBytes: p.memory,
    })),
  };
}

type PlatformPoint = PlatformSample & { samples: number };

/** The platform's gauges rolled up to `stepMs` (peaks, as the scheduler rolls them). */
function rollPlatform(points: PlatformPoint[], stepMs: number): PlatformPoint[] {
  const spans = new Map<number, PlatformPoint>();
  for (const p of points) {
    const at = p.at - (p.at % stepMs);
    const s = spans.get(at);
    if (!s) spans.set(at, { ...p, at });
    else
      spans.set(at, {
        at,
        samples: s.samples + p.samples,
        servers: Math.max(s.servers, p.servers),
        players: Math.max(s.players, p.players),
        storage: Math.max(s.storage, p.storage),
      });
  }
  return [...spans.values()].sort((a, b) => a.at - b.at);
}

/** The admin Dashboard's history: one point per span of the range, counts from the tables, gauges sampled. */
export async function adminHistory(ctx: AppContext, range: HistoryRange): Promise<AdminHistoryResponse> {
  const { stepMs, from, to } = rangeWindow(range, ctx.now());
  const gauges = new Map(
    (await series((s, f) => historyRepo.platformRows(ctx.db, s, f), rollPlatform, stepMs, from)).map((g) => [g.at, g]),
  );
  const { signups, credits } = await historyRepo.eventCounts(ctx.db, stepMs, from);
  const points: AdminHistoryResponse['points'] = [];
  // The last point is the span under way.
  for (let at = from; at <= spanOf(to, stepMs); at += stepMs) {
    const g = gauges.get(at);
    points.push({
      at,
      signups: signups.get(at) ?? 0,
      creditsSold: Math.max(0, credits.get(at) ?? 0),
      serversOnline: g?.servers ?? null,
      playersOnline: g?.players ?? null,
      storageBytes: g?.storage ?? null,
    });
  }
  return { range, stepMs, from, to, points };
}
