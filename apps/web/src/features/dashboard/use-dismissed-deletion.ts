import type { ServerDeletion } from '@canopy/contract';
import { useCallback, useState } from 'react';

/**
 * The deletion notice stays until the next server (so it reaches an owner who was away); once read it can be
 * dismissed. The browser remembers which deletion was dismissed, per user: a later deletion shows again.
 */
const storageKey = (userId: string) => `canopy.deletion-dismissed.${userId}`;

function readDismissed(userId: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(userId));
  } catch {
    return null; // storage blocked (private mode, policy): the notice simply shows
  }
}

/** True when `deletion` (identified by its instant) was dismissed in this browser, and the way to dismiss it. */
export function useDismissedDeletion(
  userId: string,
  deletion: ServerDeletion | null,
): { dismissed: boolean; dismiss: () => void } {
  const [dismissedAt, setDismissedAt] = useState(() => readDismissed(userId));
  const at = deletion?.at ?? null;
  const dismiss = useCallback(() => {
    if (at === null) return;
    setDismissedAt(at);
    try {
      window.localStorage.setItem(storageKey(userId), at);
    } catch {
      // Not remembered across visits; dismissed for this one all the same.
    }
  }, [userId, at]);
  return { dismissed: at !== null && dismissedAt === at, dismiss };
}
