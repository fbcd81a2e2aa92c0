// Work that must finish after a stop and before the process exits (the Agones Shutdown call). Both stop paths (a
// game engine's and a files-only one's) await runExitHooks right before process.exit; the stop deadline still holds.
const hooks = new Set<() => Promise<void>>();

/** Runs `hook` (which must not reject) at the end of every stop. */
export function beforeExit(hook: () => Promise<void>): void {
  hooks.add(hook);
}

/** Waits for every hook; never rejects. */
export async function runExitHooks(): Promise<void> {
  await Promise.allSettled([...hooks].map((hook) => hook()));
}
