import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux the api runs on. */
const TICKS_PER_SECOND = 100;

/** A process's CPU time so far in ticks (user + system, /proc/<pid>/stat), or null where it cannot be read. */
export function cpuTicks(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields that follow start after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? user + system : null;
}

/**
 * The CPU an engine used between two readings, in percent of one core. The first reading of a process has
 * nothing to compare with (null); a new pid starts over.
 */
export class CpuMeter {
  private readonly last = new Map<string, { pid: number; ticks: number; at: number }>();

  /** The percent since the server's last reading, or null (first reading, unreadable process). */
  read(id: string, pid: number, now: number): number | null {
    const ticks = cpuTicks(pid);
    const before = this.last.get(id);
    if (ticks === null) {
      this.last.delete(id);
      return null;
    }
    this.last.set(id, { pid, ticks, at: now });
    if (!before || before.pid !== pid || now <= before.at || ticks < before.ticks) return null;
    return Math.round(((ticks - before.ticks) / TICKS_PER_SECOND / ((now - before.at) / 1000)) * 1000) / 10;
  }

  forget(id: string) {
    this.last.delete(id);
  }
}
