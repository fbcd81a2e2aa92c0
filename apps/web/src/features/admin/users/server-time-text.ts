import { type ServerTime, adminUserLabels as t } from '@canopy/contract';
import { serverTimePhase } from '../../../lib/expiry.ts';
import { formatDateTime } from '../../../lib/format.ts';

const DAY_MS = 86_400_000;

/** The manage-user dialog's server time: permanent, waiting for a server, running until, in grace, or none. */
export function serverTimeText(time: ServerTime, now: Date): string {
  switch (serverTimePhase(time, now)) {
    case 'permanent':
      return t.permanent;
    case 'running':
      return t.serverTimeUntil(formatDateTime(time.expiresAt));
    case 'grace':
      return t.serverTimeGrace(formatDateTime(time.graceEndsAt));
    // A grace that has ended too means the server is (being) deleted: no deletion date to show, only time
    // still waiting for a server, if any.
    case 'pending':
    case 'over':
      return time.pendingMs > 0
        ? t.serverTimePending(Math.round((time.pendingMs / DAY_MS) * 10) / 10)
        : t.serverTimeNone;
  }
}
