import { useEffect } from 'react';
import { useToast } from '../../../components/ui/index.ts';

/**
 * Toasts a query's failure once per failed attempt (admin document, section 8: every failure shows an error
 * toast). `failedAt` is the query's errorUpdatedAt, so a refetch that fails again toasts again, a re-render not.
 */
export function useErrorToast(error: Error | null, failedAt: number, fallback: string): void {
  const toast = useToast();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failure, keyed by its time.
  useEffect(() => {
    if (error) toast.error(error.message || fallback);
  }, [failedAt]);
}
