import {
  type ClientSocketMessage,
  clientSocketMessageSchema,
  type ServerSocketMessage,
  SOCKET_BATCH_PARAM,
  serverSocketMessageSchema,
  socketCloseCodes,
} from '@canopy/contract';
import { decideOnClose, decideOnOpen, initialReconnectState, type ReconnectState } from './socket-reconnect.ts';

/** Connection state of the server socket (spec section 4). */
export type SocketState = 'CONNECTING' | 'OPEN' | 'CLOSED';
/** The `type` of a message the api pushes. */
export type SocketMessageType = ServerSocketMessage['type'];
/** The payload of the pushed message of type T. */
export type SocketPayload<T extends SocketMessageType> = Extract<ServerSocketMessage, { type: T }>['payload'];

/** The part of the browser's WebSocket this module uses (a fake in tests). */
export type SocketLike = Pick<WebSocket, 'onopen' | 'onclose' | 'onmessage' | 'send' | 'close'>;

export interface ServerSocketDeps {
  /** The address for a token (see socketUrl). */
  url: (token: string) => string;
  /** The current session token; null when signed out (then nothing connects). */
  getToken: () => string | null;
  /** Refreshes the session after a refusal of `failedToken`; resolves false when it failed (logout follows). */
  refreshSession: (failedToken: string) => Promise<boolean>;
  createSocket: (url: string) => SocketLike;
  /** Called once per outage, on the first abnormal close. */
  onConnectionLost?: () => void;
  /** Called when the socket opens again after an announced outage. */
  onReconnected?: () => void;
  /** Called on every successful open (the first one included). */
  onOpen?: (reopened: boolean) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * The server socket's address: same origin, ws: or wss: by the page's protocol, token in the query. The
 * page asks for console_batch frames (a chatty server costs one frame per burst, not one per line).
 */
export function socketUrl(location: { protocol: string; host: string }, userId: string, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = `token=${encodeURIComponent(token)}&${SOCKET_BATCH_PARAM}=1`;
  return `${scheme}//${location.host}/ws/${encodeURIComponent(userId)}?${query}`;
}

/** Parses and validates one pushed frame with the contract; null when it is not a known message. */
export function parseSocketMessage(data: unknown): ServerSocketMessage | null {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = serverSocketMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * One socket to /ws/{userId}: connects at once, reconnects by the rules of socket-reconnect.ts,
 * validates every message and hands its payload to the subscribers of its type.
 */
export function createServerSocket(deps: ServerSocketDeps) {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const handlers = new Map<SocketMessageType, Set<(payload: never) => void>>();
  const stateListeners = new Set<() => void>();
  let state: SocketState = 'CLOSED';
  let reconnect: ReconnectState = initialReconnectState;
  let socket: SocketLike | null = null;
  let timer: unknown = null;
  let disposed = false;
  let openedBefore = false;

  const setState = (next: SocketState) => {
    if (state === next) return;
    state = next;
    for (const listener of stateListeners) listener();
  };

  const dispatch = (message: ServerSocketMessage) => {
    for (const handler of handlers.get(message.type) ?? []) {
      try {
        (handler as (payload: typeof message.payload) => void)(message.payload);
      } catch (error) {
        // One faulty subscriber must not starve the others of the message.
        console.error('server socket subscriber failed', error);
      }
    }
  };

  const schedule = (fn: () => void, ms: number) => {
    timer = setTimer(() => {
      timer = null;
      fn();
    }, ms);
  };

  function connect() {
    if (disposed) return;
    const token = deps.getToken();
    if (!token) {
      setState('CLOSED');
      return;
    }
    setState('CONNECTING');
    const ws = deps.createSocket(deps.url(token));
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      const { toast, next } = decideOnOpen(reconnect);
      reconnect = next;
      setState('OPEN');
      if (toast) deps.onReconnected?.();
      deps.onOpen?.(openedBefore);
      openedBefore = true;
    };
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      const message = parseSocketMessage(event.data);
      if (message) dispatch(message);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      setState('CLOSED');
      const { decision, next } = decideOnClose(event.code, reconnect, disposed);
      reconnect = next;
      if (decision.kind === 'stop') return;
      if (decision.kind === 'refresh') {
        void deps
          .refreshSession(token)
          .catch(() => false)
          .then(() => {
            if (!disposed) schedule(connect, decision.delayMs);
          });
        return;
      }
      if (decision.toast) deps.onConnectionLost?.();
      schedule(connect, decision.delayMs);
    };
  }

  connect();

  return {
    /** The connection state now. */
    getState: (): SocketState => state,
    /** Subscribes to state changes (useSyncExternalStore contract). */
    subscribeState(listener: () => void): () => void {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    /** Calls `handler` with the payload of every valid message of `type`; returns the unsubscribe. */
    subscribe<T extends SocketMessageType>(type: T, handler: (payload: SocketPayload<T>) => void): () => void {
      let set = handlers.get(type);
      if (!set) {
        set = new Set();
        handlers.set(type, set);
      }
      const entry = handler as (payload: never) => void;
      set.add(entry);
      return () => set.delete(entry);
    },
    /** Sends a valid message when the socket is open; false otherwise (the caller decides what to tell). */
    send(message: ClientSocketMessage): boolean {
      const parsed = clientSocketMessageSchema.safeParse(message);
      if (!parsed.success || state !== 'OPEN' || !socket) return false;
      socket.send(JSON.stringify(parsed.data));
      return true;
    },
    /** Closes with 1000 for good (logout, unmount): no retry, no toast. */
    close(): void {
      disposed = true;
      if (timer !== null) clearTimer(timer);
      timer = null;
      const ws = socket;
      socket = null;
      if (ws) ws.close(socketCloseCodes.normal, 'closed by client');
      setState('CLOSED');
    },
  };
}

/** A server socket instance. */
export type ServerSocket = ReturnType<typeof createServerSocket>;
