import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ServerSocket, SocketMessageType, SocketPayload, SocketState } from '../lib/server-socket.ts';

/** The signed-in user's server socket; null outside the signed-in shell. */
export const ServerSocketContext = createContext<ServerSocket | null>(null);

/** The server socket of the signed-in user, or null when there is none. */
export function useServerSocket(): ServerSocket | null {
  return useContext(ServerSocketContext);
}

const closed = (): SocketState => 'CLOSED';
const noop = () => () => {};

/** The socket's connection state, re-rendering on change; CLOSED when there is no socket. */
export function useSocketState(): SocketState {
  const socket = useServerSocket();
  return useSyncExternalStore(socket?.subscribeState ?? noop, socket?.getState ?? closed);
}

/** Calls `handler` with every valid pushed message of `type` while the component is mounted. */
export function useSocketMessage<T extends SocketMessageType>(type: T, handler: (payload: SocketPayload<T>) => void) {
  const socket = useServerSocket();
  // The latest handler is called without resubscribing on every render.
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => socket?.subscribe(type, (payload) => latest.current(payload)), [socket, type]);
}
