// Engines run in their own process groups and outlive the api; the api reaches one it did not spawn (adopted after a
// restart, or a stray files-only one) by its pid only.

/** Whether a process with this pid exists (signal 0 sends nothing; EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends `sig` to the process; one already gone is left at that. */
export function signalPid(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
