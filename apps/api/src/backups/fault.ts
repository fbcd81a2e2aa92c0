/**
 * Fault injection for the crash tests (apps/api/test/backups-crash.test.ts): with
 * `CANOPY_FAULT_PAUSE=<point>` the api stops at that named point of a backup or restore, prints
 * `CANOPY_FAULT_PAUSED <point>` on stdout and waits forever, so the test can SIGKILL it exactly there.
 * Never active in production.
 */
// restore-before-send: under the power lock, the server's engine stopped, before the backup streams to the
// files-only engine (which does the swap itself now: an api killed there leaves the live database as it was).
export type FaultPoint = 'backup:create-before-commit' | 'backup:restore-before-send';

export async function faultPoint(point: FaultPoint): Promise<void> {
  if (process.env.NODE_ENV === 'production' || process.env.CANOPY_FAULT_PAUSE !== point) return;
  process.stdout.write(`CANOPY_FAULT_PAUSED ${point}\n`);
  await new Promise(() => {});
}
