// One running container: a local process in its own process group, its output kept as the container log.
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import { timestamp } from './resources.ts';

export interface LogLine {
  /** RFC 3339 with nanoseconds, as `timestamps=true` prints it. */
  time: string;
  text: string;
}

/** A container's output, stdout and stderr interleaved by arrival, the last `capacity` lines. */
export class LogBuffer {
  readonly lines: LogLine[] = [];
  private listeners = new Set<(line: LogLine) => void>();
  private enders = new Set<() => void>();
  private ended = false;
  private capacity: number;
  constructor(capacity = 10_000) {
    this.capacity = capacity;
  }
  push(text: string) {
    const line = { time: new Date().toISOString().replace('Z', '000000Z'), text };
    this.lines.push(line);
    if (this.lines.length > this.capacity * 2) this.lines.splice(0, this.lines.length - this.capacity);
    for (const listener of this.listeners) listener(line);
  }
  tail(n: number | undefined): LogLine[] {
    const kept = this.lines.slice(-this.capacity);
    return n === undefined ? kept : n <= 0 ? [] : kept.slice(-n);
  }
  /** Calls `listener` with each new line and `onEnd` once this run of the container is over. */
  subscribe(listener: (line: LogLine) => void, onEnd: () => void): () => void {
    if (this.ended) {
      onEnd();
      return () => {};
    }
    this.listeners.add(listener);
    this.enders.add(onEnd);
    return () => {
      this.listeners.delete(listener);
      this.enders.delete(onEnd);
    };
  }
  /** The run is over: no more lines. */
  end() {
    this.ended = true;
    for (const onEnd of this.enders) onEnd();
    this.listeners.clear();
    this.enders.clear();
  }
}

export interface Exit {
  exitCode: number;
  signal: string | undefined;
  startedAt: string;
  finishedAt: string;
}

export interface StartSpec {
  name: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  log: LogBuffer;
}

/** A container's process. `exited` settles when it is gone (also when it could not start). */
export class ContainerProcess {
  readonly name: string;
  readonly startedAt = timestamp();
  readonly exited: Promise<Exit>;
  readonly child: ChildProcess;
  exit: Exit | undefined;

  constructor(spec: StartSpec) {
    this.name = spec.name;
    // detached: a process group of its own, so a signal reaches whatever the container started too.
    this.child = spawn(process.execPath, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr])
      if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => spec.log.push(line));
    this.exited = new Promise((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.exit) return;
        // A process ended by a signal exits 128 + its number, as a container runtime reports it.
        const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
        this.exit = { exitCode, signal: signal ?? undefined, startedAt: this.startedAt, finishedAt: timestamp() };
        resolve(this.exit);
      };
      // 'close' comes after the output streams are drained, so the log is whole when the exit is seen.
      this.child.on('close', (code, signal) => {
        finish(code, signal);
        spec.log.end();
      });
      this.child.on('error', (error) => {
        spec.log.push(`stand-in: could not start the container: ${error.message}`);
        finish(128, null);
        spec.log.end();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Signals the container's process group (falls back to the process if the group is gone). */
  kill(signal: NodeJS.Signals): void {
    if (this.exit || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      try {
        this.child.kill(signal);
      } catch {}
    }
  }
}
