import { AppError } from '../errors.ts';

/** Large writes one server may have waiting behind the one its engine is doing. */
export const MAX_WAITING_WRITES = 4;

/**
 * One server's large writes (whole worlds), one at a time, with a bounded line behind. A request takes its
 * turn before its body is read (the route chain's `admit` step), so a waiting upload stays in the kernel's
 * buffers and costs the api nothing, and one past the line is refused (429) without reading it. Twenty
 * concurrent multi-megabyte saves would otherwise be read, then all sit in the engine at once and time out.
 */
export class WriteQueue {
  private readonly lines = new Map<string, { busy: boolean; waiting: (() => void)[] }>();

  /**
   * Waits for the server's turn; the returned function ends it (once; later calls do nothing). A caller
   * that goes away while waiting (`signal`) leaves the line and never gets the turn.
   */
  async enter(serverId: string, signal?: AbortSignal): Promise<() => void> {
    const line = this.lines.get(serverId) ?? { busy: false, waiting: [] };
    this.lines.set(serverId, line);
    if (line.busy) {
      if (line.waiting.length >= MAX_WAITING_WRITES)
        throw new AppError(
          429,
          'writes_queued',
          'Other saves of this server are still in progress. Please try again in a moment.',
        );
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          line.waiting.splice(line.waiting.indexOf(turn), 1);
          reject(new AppError(499, 'client_gone', 'The request was abandoned.'));
        };
        if (signal?.aborted) return leave();
        line.waiting.push(turn);
        signal?.addEventListener('abort', leave, { once: true });
      });
    }
    line.busy = true;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = line.waiting.shift();
      if (next) next();
      else this.lines.delete(serverId);
    };
  }
}
