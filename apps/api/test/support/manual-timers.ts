import type { CoalescerTimers } from '../../src/ws/frame-coalescer.ts';

/** A clock for FrameCoalescer that moves only when told; `advance` fires what is due in time order (0 ms: at once). */
export function manualTimers() {
  let now = 0;
  let tasks: { at: number; fn: () => void; cancelled: boolean }[] = [];
  const timers: CoalescerTimers = {
    now: () => now,
    later(fn, ms) {
      const task = { at: now + Math.max(0, ms), fn, cancelled: false };
      tasks.push(task);
      return () => {
        task.cancelled = true;
      };
    },
  };
  return {
    timers,
    /** Tasks scheduled and not cancelled or run. */
    scheduled: () => tasks.filter((t) => !t.cancelled).map((t) => t.at - now),
    /** Moves the clock by `ms`, running every task due by then in time order. */
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = tasks.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        tasks = tasks.filter((t) => t !== due);
        due.fn();
      }
      now = until;
    },
  };
}
