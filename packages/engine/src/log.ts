import type { EngineConsoleLine, EngineLogLevel } from '@canopy/contract/engine';

type Listener = (line: EngineConsoleLine) => void;

/** Where formatted lines go; the default is stdout. */
export type LineSink = (text: string) => void;

/**
 * The engine's one logger: `<ISO timestamp> [LEVEL] message` lines on stdout, each also kept in a
 * bounded ring (console history) and handed to live subscribers (the console stream).
 */
export class Logger {
  readonly capacity: number;
  debugEnabled: boolean;
  private seq = 0;
  private lines: EngineConsoleLine[] = [];
  private listeners = new Set<Listener>();
  private sink: LineSink;
  private hidden: [path: string, shownAs: string][] = [];

  constructor(opts: { capacity?: number; debug?: boolean; sink?: LineSink } = {}) {
    this.capacity = opts.capacity ?? 1000;
    this.debugEnabled = opts.debug ?? false;
    this.sink = opts.sink ?? stdoutSink();
  }

  /**
   * Shows `path` as `shownAs` in every later line. The console is read by collaborators, who have no
   * business knowing the host's layout: a file-system error or a stack trace must not print it.
   */
  hidePath(path: string, shownAs: string): void {
    if (path.length > 1) this.hidden.push([path, shownAs]);
  }

  /** Prints a message; a multi-line message becomes several lines, each with its own timestamp and level. */
  log(level: EngineLogLevel, message: string): void {
    if (level === 'DEBUG' && !this.debugEnabled) return;
    const ts = new Date().toISOString();
    let text = message;
    for (const [path, shownAs] of this.hidden) if (text.includes(path)) text = text.replaceAll(path, shownAs);
    for (const part of text.split(/\r?\n/)) {
      const entry = { seq: ++this.seq, line: `${ts} [${level}] ${part}` };
      this.lines.push(entry);
      // Trim in batches so that keeping the ring costs O(1) per line on average.
      if (this.lines.length >= this.capacity * 2) this.lines = this.lines.slice(-this.capacity);
      this.sink(`${entry.line}\n`);
      for (const listener of this.listeners) listener(entry);
    }
  }

  debug(message: string): void {
    this.log('DEBUG', message);
  }
  info(message: string): void {
    this.log('INFO', message);
  }
  warn(message: string): void {
    this.log('WARN', message);
  }
  error(message: string): void {
    this.log('ERROR', message);
  }
  fatal(message: string): void {
    this.log('FATAL', message);
  }

  /** The kept lines with a sequence number above `after`, oldest first (at most `capacity`). */
  history(after = 0): EngineConsoleLine[] {
    const kept = this.lines.length > this.capacity ? this.lines.slice(-this.capacity) : this.lines;
    return after > 0 ? kept.filter((l) => l.seq > after) : [...kept];
  }

  /** Calls `listener` for every new line until the returned function is called. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Sinks with lines not yet written; the process's exit writes them (see stdoutSink). */
const unflushed = new Set<() => void>();
let flushOnExit = false;

/**
 * Writes to stdout, ignoring a closed pipe: the api may restart while the engine runs, and the
 * engine must outlive its reader. After the first error nothing more is written there.
 *
 * The lines of one run of code go out in one write, once it ends (a microtask): the api reads every
 * write separately, and a flood of 25,000 lines/s written one by one cost it 5-12k reads a second. A
 * lone line waits for nothing but the end of the code that printed it. process.exit() runs no more
 * microtasks, so the 'exit' event writes what is left (synchronously: stdout is a pipe or a file),
 * and a FATAL line just before an exit is never lost.
 */
export function stdoutSink(stream: NodeJS.WriteStream = process.stdout): LineSink {
  let open = true;
  let pending = '';
  stream.on('error', () => {
    open = false;
  });
  const flush = () => {
    unflushed.delete(flush);
    const text = pending;
    pending = '';
    if (!open || !text) return;
    try {
      stream.write(text);
    } catch {
      open = false;
    }
  };
  if (!flushOnExit) {
    flushOnExit = true;
    process.on('exit', () => {
      for (const sinkFlush of unflushed) sinkFlush();
    });
  }
  return (text) => {
    if (!open) return;
    if (!pending) {
      unflushed.add(flush);
      queueMicrotask(flush);
    }
    pending += text;
  };
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
