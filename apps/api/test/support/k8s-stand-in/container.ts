// One running container: a local process in its own process group, its output kept as the container log.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  /** Killed for going over its memory limit (the runtime's OOMKilled). */
  oomKilled: boolean;
  startedAt: string;
  finishedAt: string;
}

export interface StartSpec {
  name: string;
  /** resources.limits.memory in bytes: the process is killed (OOMKilled) when its resident memory goes over it. */
  memoryLimit?: number;
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
  private oomKilled = false;

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
        this.exit = {
          exitCode,
          signal: signal ?? undefined,
          oomKilled: this.oomKilled,
          startedAt: this.startedAt,
          finishedAt: timestamp(),
        };
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
    if (spec.memoryLimit) this.watchMemory(spec.memoryLimit);
  }

  /**
   * Plays the cgroup memory limit: the resident memory of the container's main process (children are not counted)
   * is read every 500 ms, and over the limit the container is SIGKILLed as OOMKilled.
   */
  private watchMemory(limit: number): void {
    const timer = setInterval(() => {
      const status = this.child.pid === undefined ? '' : readStatus(this.child.pid);
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      if (kb * 1024 > limit) this.oomKill();
    }, 500);
    timer.unref();
    void this.exited.then(() => clearInterval(timer));
  }

  /** Ends the container as the kernel ends one over its memory limit. */
  oomKill(): void {
    if (this.exit) return;
    this.oomKilled = true;
    this.kill('SIGKILL');
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

const readStatus = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
};

const UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** A Kubernetes quantity of bytes ("320Mi", "1G", "1500000") as a number; undefined when absent or not one. */
export function bytes(quantity: string | number | undefined): number | undefined {
  if (quantity === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(|k|M|G|T|Ki|Mi|Gi|Ti)$/.exec(String(quantity));
  return m ? Number(m[1]) * (UNITS[m[2] ?? ''] ?? 1) : undefined;
}
