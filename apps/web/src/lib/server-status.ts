import type { ServerStatus } from '@canopy/contract';

/** True for STARTING, STOPPING and RESTARTING: the status is on its way to ONLINE or OFFLINE, so actions wait. */
export function isTransitional(status: ServerStatus | string): boolean {
  return status === 'STARTING' || status === 'STOPPING' || status === 'RESTARTING';
}
