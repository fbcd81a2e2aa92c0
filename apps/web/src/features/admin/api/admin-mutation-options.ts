import type { MutationOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ToastApi } from '../../../components/ui/toast.tsx';
import { adminKeys } from './admin-list.ts';

export interface AdminMutationOptions<TVars, TAnswer> {
  /** Names the write, so a dialog can wait on its own writes only (useIsMutating({ mutationKey })). */
  mutationKey?: QueryKey;
  /** Called with the variables only (see adminMutationOptions). */
  mutationFn: (vars: TVars) => Promise<TAnswer>;
  /** The success toast: the spec's fixed text, else the api's {message}. */
  success: (answer: TAnswer, vars: TVars) => string;
  /** The spec's fallback when the failed answer carries no 'error' (the api client already prefers 'error'). */
  fallback: string;
  /** Lists to reload after success (admin document, section 7: "reloads the affected list"). */
  invalidate: readonly QueryKey[];
  /** Shows the write in the cache before the answer; returns how to undo it, run when the write fails. */
  optimistic?: (vars: TVars) => Promise<() => void>;
}

/**
 * The options of an admin write with the panel's toasts: success text on success, the answer's error (else the
 * fallback) on failure, and the affected lists reloaded either way (a refusal may mean the list was stale).
 */
export function adminMutationOptions<TVars, TAnswer>(
  options: AdminMutationOptions<TVars, TAnswer>,
  queryClient: QueryClient,
  toast: Pick<ToastApi, 'success' | 'error'>,
): MutationOptions<TAnswer, Error, TVars, { rollback: (() => void) | undefined }> {
  return {
    mutationKey: options.mutationKey,
    // The variables only: TanStack Query passes its function context as a second argument, which a call helper
    // with an optional second parameter (postBannedServer's fallback text) would take for its own, and then
    // toast '[object Object]' for an answer without an 'error'.
    mutationFn: (vars) => options.mutationFn(vars),
    onMutate: async (vars) => ({ rollback: await options.optimistic?.(vars) }),
    onSuccess: (answer, vars) => toast.success(options.success(answer, vars)),
    onError: (error, _vars, context) => {
      context?.rollback?.();
      toast.error(typeof error?.message === 'string' && error.message ? error.message : options.fallback);
    },
    onSettled: () => reloadAfterAdminWrite(queryClient, options.invalidate),
  };
}

/**
 * After any admin write: the listed keys reload now, and every other admin query is marked stale, so another
 * tab (Ban Logs, Activity Logs, Dashboard, Storage...) reloads when it is next shown instead of serving the
 * app's 30 s cache of a state the write just changed.
 */
export function reloadAfterAdminWrite(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<unknown> {
  void queryClient.invalidateQueries({ queryKey: adminKeys.all, refetchType: 'none' });
  return Promise.all(keys.map((key) => queryClient.invalidateQueries({ queryKey: key })));
}
