import type { AppContext } from '../context.ts';
import { MINUTE, spanOf } from './downsample.ts';
import { historyRepo, type ServerMeasure } from './history.repo.ts';

/** What the sampler reads of the runtime (the registry and the driver; a bench feeds its own). */
export interface SampleSource {
  /** The servers ONLINE in this replica's runtime, with their players. */
  online(): { id: string; players: number }[];
  /** The engine's CPU (% of one core) and memory (bytes), or null where the runtime cannot measure them. */
  usage(id: string): { cpuPercent: number | null; memoryBytes: number | null } | null;
}

/** One sampling pass at `now`: one 1-minute point per ONLINE server of `source`; returns how many. */
export async function sampleHistory(ctx: Pick<AppContext, 'db'>, source: SampleSource, now: number) {
  const measures: ServerMeasure[] = source.online().map(({ id, players }) => {
    const usage = source.usage(id);
    return { serverId: id, players, cpu: usage?.cpuPercent ?? null, memory: usage?.memoryBytes ?? null };
  });
  await historyRepo.writeMinute(ctx.db, spanOf(now, MINUTE), measures);
  return measures.length;
}

/**
 * Samples this replica's ONLINE servers every minute. Each replica samples the engines its own driver runs (the
 * local driver: only this machine can read their processes' CPU and memory); a driver that sees the whole
 * cluster from every replica (kubernetes) is sampled by the scheduler's leader alone, so a server has one point
 * a minute however many replicas run. Returns its stop.
 */
export function startHistorySampler(ctx: AppContext, intervalMs = MINUTE): () => void {
  const runtime = ctx.servers.runtime;
  const source: SampleSource = {
    online: () => ctx.servers.online(),
    usage: (id) => runtime.usage?.(id) ?? null,
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy || (runtime.clusterWide && ctx.leader && !ctx.leader.isLeader)) return;
    busy = true;
    sampleHistory(ctx, source, ctx.now())
      .catch((error) => ctx.log.warn({ err: error }, 'history sampling failed'))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
