import { type ServerTime, adminUserLabels as t } from '@canopy/contract';
import { formatDateTime } from '../../../lib/format.ts';

const DAY_MS = 86_400_000;

/** The manage-user dialog's server time: permanent, waiting for a server, running until, in grace, or none. */
export function serverTimeText(time: ServerTime, now: Date): string {
  if (time.permanent) return t.permanent;
  if (time.expiresAt) {
    if (Date.parse(time.expiresAt) > now.getTime()) return t.serverTimeUntil(formatDateTime(time.expiresAt));
    // A grace that has ended too means the server is (being) deleted: no time left to show.
    if (time.graceEndsAt && Date.parse(time.graceEndsAt) > now.getTime())
      return t.serverTimeGrace(formatDateTime(time.graceEndsAt));
  }
  if (time.pendingMs > 0) return t.serverTimePending(Math.round((time.pendingMs / DAY_MS) * 10) / 10);
  return t.serverTimeNone;
}
