import { useEffect, useRef } from 'react';
import { useToast } from '../components/ui/index.ts';

/**
 * Shows a query's failure once as an error toast (spec section 8: every failure is a toast). A query that keeps
 * failing the same way (a poll every few seconds) toasts once, not on every attempt; it toasts again after a
 * success or when the message changes.
 */
export function useErrorToast(error: Error | null | undefined) {
  const toast = useToast();
  const shown = useRef<string | null>(null);
  const message = error ? error.message : null;
  useEffect(() => {
    if (message === null) shown.current = null;
    else if (message !== shown.current) {
      shown.current = message;
      toast.error(message);
    }
  }, [message, toast]);
}
