import { configurationMessages, type ServerStatus } from '@canopy/contract';

/**
 * What the page says beside a '… & Restart Server' button: a stopped server is not started by a save (the
 * change applies at its next start); null while it runs, when the save restarts it.
 */
export function applyNote(status: ServerStatus | undefined): string | null {
  return status === 'OFFLINE' ? configurationMessages.appliedNextStart : null;
}
