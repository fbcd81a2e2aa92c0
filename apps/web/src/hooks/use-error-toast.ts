import { useEffect } from 'react';
import { useToast } from '../components/ui/index.ts';

/** Shows each new error of a query once as an error toast (spec section 8: every failure is a toast). */
export function useErrorToast(error: Error | null | undefined) {
  const toast = useToast();
  useEffect(() => {
    if (error) toast.error(error.message);
  }, [error, toast]);
}
