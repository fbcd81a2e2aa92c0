import type { AdminServerRow, ServerStatus } from '@canopy/contract';
import { isTransitional } from '../../../lib/server-status.ts';

/** True when some row of the page is still settling, so the page is re-read until it is not. */
export function anyTransitional(rows: readonly Pick<AdminServerRow, 'status'>[] | undefined): boolean {
  return rows?.some((row) => isTransitional(row.status)) ?? false;
}

/** Which of a row's buttons can be pressed. */
export interface ServerRowButtons {
  start: boolean;
  stop: boolean;
  restart: boolean;
  delete: boolean;
}

/**
 * The button rules of the admin servers list (admin document, section 4): start is disabled when the server is
 * ONLINE or STARTING, stop when OFFLINE or STOPPING, restart and delete while an action is pending. An action is
 * pending from the click until the api answers (`inFlight`) and then while the status is transitional; every
 * button waits for it, so a second click cannot race the first.
 */
export function serverRowButtons(status: ServerStatus, inFlight: boolean): ServerRowButtons {
  const pending = inFlight || isTransitional(status);
  return {
    start: !pending && status !== 'ONLINE' && status !== 'STARTING',
    stop: !pending && status !== 'OFFLINE' && status !== 'STOPPING',
    restart: !pending,
    delete: !pending,
  };
}
