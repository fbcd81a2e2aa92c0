/** Restart delays after an unexpected exit: doubling from 1 s up to 30 s; a run that lasted a minute starts over. */
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
const STABLE_MS = 60_000;

/**
 * Restarts something that exited unexpectedly (the gateway's HTTPS thread, its ENet front) after a delay that
 * doubles with each exit in a row. The restart's own failure is its caller's to log; its exit schedules the next.
 */
export class RestartWithBackoff {
  private delayMs = BACKOFF_MIN_MS;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly restart: () => void;

  constructor(restart: () => void) {
    this.restart = restart;
  }

  /** Schedules a restart after an exit of a run started at `startedAt` (ms); returns the delay it waits. */
  schedule(startedAt: number): number {
    if (Date.now() - startedAt >= STABLE_MS) this.delayMs = BACKOFF_MIN_MS;
    const delay = this.delayMs;
    this.delayMs = Math.min(BACKOFF_MAX_MS, this.delayMs * 2);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.restart();
    }, delay);
    this.timer.unref();
    return delay;
  }

  /** Cancels a pending restart; none follows. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
