import { readFileSync } from 'node:fs';

// An engine's memory ceiling (ADR 0029): the V8 flag it is started with, how its memory is read, and when it has
// stayed over the ceiling long enough to be restarted.

const MB = 1024 * 1024;

/**
 * The JavaScript heap's share of an engine's ceiling. The rest is for what lives outside the heap (code, SQLite's
 * cache, buffers, about 20 MB in an idle engine), so an engine that fills its heap dies of V8's own limit, with
 * its clear message, before the sampler finds it over the ceiling.
 */
export const heapLimitMB = (limitMB: number) => Math.max(16, Math.floor(limitMB * 0.75));

/**
 * Node flags for an engine with this ceiling. A heap that reaches the limit ends the process ("JavaScript heap
 * out of memory") instead of growing until the host's OOM killer picks a victim. The young generation stays as
 * ENGINE_NODE_FLAGS sets it (1 MB semi-spaces).
 */
export const memoryFlags = (limitMB: number | null): string[] =>
  limitMB === null ? [] : [`--max-old-space-size=${heapLimitMB(limitMB)}`];

/**
 * The memory a process holds for itself, in bytes: its anonymous resident pages (`RssAnon` of /proc/<pid>/status:
 * heap, buffers, SQLite's cache). Not VmRSS, which also counts the pages of the Node binary and libraries that
 * every engine shares (about 50 MB each). Null where it cannot be read (the process is gone; not Linux).
 * A synchronous read of a small procfs file: about 40 µs, cheaper than a round trip through the thread pool.
 */
export function privateMemoryBytes(pid: number): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null;
  }
  const kb = /^RssAnon:\s+(\d+) kB/m.exec(status) ?? /^VmRSS:\s+(\d+) kB/m.exec(status);
  return kb ? Number(kb[1]) * 1024 : null;
}

/** Samples in a row over the ceiling before an engine is restarted: a passing peak (a big save) is let be. */
export const OVER_SAMPLES = 2;

/** Follows one engine's samples against its ceiling. */
export class MemoryCeiling {
  readonly limitMB: number;
  private over = 0;

  constructor(limitMB: number) {
    this.limitMB = limitMB;
  }

  /** Takes one sample; true once the engine has been over its ceiling for OVER_SAMPLES samples in a row. */
  exceededBy(bytes: number): boolean {
    this.over = bytes > this.limitMB * MB ? this.over + 1 : 0;
    return this.over >= OVER_SAMPLES;
  }
}

/** What the console and the activity log say of an engine stopped for its memory; `who` names the server. */
export const memoryVerdict = (who: string, limitMB: number, restarting: boolean) =>
  restarting
    ? `${who} was restarted because it used more than ${limitMB} MB of memory`
    : `${who} was stopped because it used more than ${limitMB} MB of memory again within a minute; it stays offline until it is started again`;

/** True for V8's last line before it ends a process whose heap reached its limit. */
export const isHeapOutOfMemoryLine = (line: string) =>
  line.startsWith('FATAL ERROR: ') && line.includes('JavaScript heap out of memory');
