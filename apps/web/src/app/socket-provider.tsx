import { hostingMessages } from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useToast } from '../components/ui/index.ts';
import { ServerSocketContext } from '../hooks/use-server-socket.ts';
import { api } from '../lib/api-client.ts';
import { createServerSocket, type ServerSocket, socketUrl } from '../lib/server-socket.ts';
import { session } from '../lib/session.ts';
import { applyStatusPush, refetchServerFacts, statusQueryKey } from '../lib/status-query.ts';

/**
 * Holds the one socket of the signed-in user for as long as the shell is shown; unmounting (logout)
 * closes it with 1000. Status pushes go straight into the ['status'] query cache.
 */
export function ServerSocketProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [socket, setSocket] = useState<ServerSocket | null>(null);

  useEffect(() => {
    const created = createServerSocket({
      url: (token) => socketUrl(window.location, userId, token),
      getToken: () => session.getSessionToken(),
      refreshSession: (failedToken) => api.refreshSession(failedToken),
      createSocket: (url) => new WebSocket(url),
      onConnectionLost: () => toast.error(hostingMessages.connectionLost),
      onReconnected: () => toast.success(hostingMessages.reconnected),
      // Pushes missed while the socket was down are caught up by one refetch.
      onOpen: (reopened) => {
        if (reopened) void queryClient.invalidateQueries({ queryKey: statusQueryKey });
      },
    });
    const unsubscribeStatus = created.subscribe('status_update', (update) => applyStatusPush(queryClient, update));
    // Time ran out, grace ended (server deleted) or the crash-loop guard held it down: reload what changed.
    const unsubscribeNotice = created.subscribe('server_notice', () => refetchServerFacts(queryClient));
    // An admin banned or unbanned this account: the profile decides which pages stay open.
    const unsubscribeAccount = created.subscribe('account_notice', () => refetchServerFacts(queryClient));
    setSocket(created);
    return () => {
      unsubscribeStatus();
      unsubscribeNotice();
      unsubscribeAccount();
      created.close();
      setSocket(null);
    };
  }, [userId, queryClient, toast]);

  return <ServerSocketContext.Provider value={socket}>{children}</ServerSocketContext.Provider>;
}
