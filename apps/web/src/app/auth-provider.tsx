import { messages } from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useToast } from '../components/ui/index.ts';
import { AUTH_ERROR_EVENT, authEvents } from '../lib/api-client.ts';
import { session, useSession } from '../lib/session.ts';

// The localStorage entry whose removal in another tab means that tab logged out.
const SESSION_TOKEN_ENTRY = 'canopy.session-token';

/** Restores the stored session, logs out on 'auth-error', and drops cached server state on logout. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { user, storageError } = useSession();

  useEffect(() => {
    void session.restore();
  }, []);

  useEffect(() => {
    const onAuthError = () => {
      if (!session.getState().user) return;
      session.signOut(false);
      toast.info(messages.sessionExpired);
    };
    authEvents.addEventListener(AUTH_ERROR_EVENT, onAuthError);
    return () => authEvents.removeEventListener(AUTH_ERROR_EVENT, onAuthError);
  }, [toast]);

  // A logout in another tab clears the shared storage; follow it here.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_TOKEN_ENTRY && event.newValue === null && session.getState().user)
        session.signOut(true);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // Server state belongs to the user who fetched it; nothing of it may leak to the next sign-in.
  const userId = user?.id ?? null;
  useEffect(() => {
    if (userId === null) queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'auth-config' });
  }, [userId, queryClient]);

  useEffect(() => {
    if (storageError) toast.error(storageError);
  }, [storageError, toast]);

  return children;
}
