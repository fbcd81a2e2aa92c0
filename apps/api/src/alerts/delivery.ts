import type { AppContext } from '../context.ts';
import { alertsRepo, type QueuedAlertRow } from './alerts.repo.ts';
import { destinationOf, sealerOf } from './seal.ts';

/** Failed attempts (5xx, network) before an alert is dropped; the waits between them double from BASE_BACKOFF_MS. */
export const MAX_ATTEMPTS = 8;
export const BASE_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 60 * 60_000;
/** An alert still not sent after a day is stale news: dropped. */
const MAX_AGE_MS = 24 * 60 * 60_000;
const BATCH = 20;
const POST_TIMEOUT_MS = 10_000;
const RATE_WINDOW_MS = 60_000;

/** The wait before attempt `attempts + 1` after `attempts` failures. */
export function backoffMs(attempts: number): number {
  return Math.min(BASE_BACKOFF_MS * 2 ** Math.max(attempts - 1, 0), MAX_BACKOFF_MS);
}

/** Discord's wait after a 429: `retry_after` seconds in the JSON body, else the Retry-After header; at least 1 s. */
async function retryAfterMs(res: Response): Promise<number> {
  let seconds = Number.NaN;
  try {
    seconds = Number((await res.json()).retry_after);
  } catch {
    // not JSON: the header says it
  }
  if (!Number.isFinite(seconds)) seconds = Number(res.headers.get('retry-after'));
  return Math.max(Number.isFinite(seconds) ? seconds * 1000 : BASE_BACKOFF_MS, 1000);
}

/**
 * Sends queued alerts, on the scheduler's leader only (app.ts starts it with the other jobs), so that several replicas
 * never send one alert twice. Each row is marked in flight before its POST: a row found in flight was cut off by a
 * process that died, and is sent once more at most (ADR 0049: at least once while Discord answers, never more than
 * twice). Per destination, at most `ratePerMinute` posts in each minute (fixed windows of ctx.now()).
 */
export function startAlertDelivery(ctx: AppContext): () => Promise<void> {
  const sealer = sealerOf(ctx.config);
  const windows = new Map<string, { start: number; count: number }>();
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const send = async (row: QueuedAlertRow) => {
    const now = ctx.now();
    if (now - row.created_at > MAX_AGE_MS) return void (await alertsRepo.remove(ctx.db, row.id));
    if (row.in_flight === 1 && row.cut_off === 1) {
      ctx.log.warn(`alert ${row.event} dropped: its sending was cut off twice`);
      return void (await alertsRepo.remove(ctx.db, row.id));
    }
    const url = sealer.open(row.url_sealed);
    if (!url) {
      ctx.log.warn(`alert ${row.event} dropped: its webhook cannot be opened (was the session secret changed?)`);
      return void (await alertsRepo.remove(ctx.db, row.id));
    }
    const destination = destinationOf(url);
    const start = now - (now % RATE_WINDOW_MS);
    const window = windows.get(destination);
    const used = window?.start === start ? window.count : 0;
    if (used >= ctx.config.alerts.ratePerMinute)
      return void (await alertsRepo.later(ctx.db, row.id, start + RATE_WINDOW_MS, row.attempts));
    windows.set(destination, { start, count: used + 1 });

    await alertsRepo.startSending(ctx.db, row.id, row.in_flight === 1);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: row.payload,
        redirect: 'error',
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      });
    } catch (error) {
      return failed(row, `${(error as Error).message}`);
    }
    if (res.ok) {
      await res.body?.cancel();
      return void (await alertsRepo.remove(ctx.db, row.id));
    }
    if (res.status === 429)
      return void (await alertsRepo.later(ctx.db, row.id, ctx.now() + (await retryAfterMs(res)), row.attempts));
    await res.body?.cancel();
    if (res.status >= 500) return failed(row, `HTTP ${res.status}`);
    // 4xx: the webhook was deleted or the body refused; retrying cannot help.
    ctx.log.warn(`alert ${row.event} dropped: the webhook answered ${res.status}`);
    await alertsRepo.remove(ctx.db, row.id);
  };

  const failed = async (row: QueuedAlertRow, why: string) => {
    const attempts = row.attempts + 1;
    if (attempts >= MAX_ATTEMPTS) {
      ctx.log.warn(`alert ${row.event} dropped after ${attempts} attempts (${why})`);
      return void (await alertsRepo.remove(ctx.db, row.id));
    }
    await alertsRepo.later(ctx.db, row.id, ctx.now() + backoffMs(attempts), attempts);
  };

  const tick = async () => {
    const now = ctx.now();
    // Windows of past minutes count nothing any more: forgotten, so the map holds only this minute's destinations.
    for (const [destination, window] of windows) if (window.start + RATE_WINDOW_MS <= now) windows.delete(destination);
    const rows = await alertsRepo.due(ctx.db, now, BATCH);
    for (const row of rows) {
      if (stopped) return;
      await send(row);
    }
  };
  const timer = setInterval(() => {
    running = running.then(tick).catch((error) => ctx.log.error({ err: error }, 'alert delivery failed'));
  }, ctx.config.alerts.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
