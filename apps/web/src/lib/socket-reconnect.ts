import {
  SOCKET_BACKOFF_INITIAL_MS,
  SOCKET_BACKOFF_MAX_MS,
  SOCKET_REFRESH_RETRY_MS,
  SOCKET_RESTART_RETRY_MAX_MS,
  socketCloseCodes,
} from '@canopy/contract';

/** What the socket remembers between connections to decide the next step. */
export interface ReconnectState {
  /** Backoff retries since the socket was last open (0 = the next one waits the initial delay). */
  attempt: number;
  /** True while a 'connection lost' toast stands for the current outage. */
  outage: boolean;
  /** True when the last close was a refused token that a refresh should have cured. */
  refreshTried: boolean;
}

/** The state of a socket that has never failed. */
export const initialReconnectState: ReconnectState = { attempt: 0, outage: false, refreshTried: false };

/** What to do after a close (spec section 4, "Socket"). */
export type CloseDecision =
  /** 1000 or a deliberate close: stay closed. */
  | { kind: 'stop' }
  /** 1008/1011: refresh the session, then reconnect after SOCKET_REFRESH_RETRY_MS. */
  | { kind: 'refresh'; delayMs: number }
  /**
   * Anything else: reconnect after the backoff delay; `toast` is true once per outage. A refusal for
   * load (4029 too many connections, 1013 try again later) waits the maximum delay at once; a replica
   * restarting (1012) is no outage: reconnect within SOCKET_RESTART_RETRY_MAX_MS, without a toast.
   */
  | { kind: 'retry'; delayMs: number; toast: boolean };

/** Delay before backoff retry number `attempt` (0-based): initial, doubling, capped at the maximum. */
export function backoffDelayMs(attempt: number): number {
  return Math.min(SOCKET_BACKOFF_INITIAL_MS * 2 ** Math.max(attempt, 0), SOCKET_BACKOFF_MAX_MS);
}

/**
 * Decides the step after a close with `code` and the state to carry on. A refused token is
 * refreshed once; refused again without having opened in between (the refresh did not help),
 * it is treated as an outage with backoff, so a persistent refusal cannot spin every 0.5 s.
 */
export function decideOnClose(
  code: number,
  state: ReconnectState,
  deliberate = false,
  random: () => number = Math.random,
): { decision: CloseDecision; next: ReconnectState } {
  if (deliberate || code === socketCloseCodes.normal) {
    return { decision: { kind: 'stop' }, next: initialReconnectState };
  }
  // A rolling restart: another replica takes the socket. Spread over a moment so that a replica's sockets do not
  // all arrive at once; the state is kept, so a reconnect that fails after it starts the outage's usual backoff.
  if (code === socketCloseCodes.serviceRestart) {
    return {
      decision: { kind: 'retry', delayMs: Math.floor(random() * SOCKET_RESTART_RETRY_MAX_MS), toast: false },
      next: state,
    };
  }
  // Reconnecting quickly cannot help when the api refused for load: another socket (a tab) must close first.
  if (code === socketCloseCodes.tooManyConnections || code === socketCloseCodes.tryAgainLater) {
    return {
      decision: { kind: 'retry', delayMs: SOCKET_BACKOFF_MAX_MS, toast: !state.outage },
      next: { attempt: state.attempt + 1, outage: true, refreshTried: false },
    };
  }
  const refusal = code === socketCloseCodes.policyViolation || code === socketCloseCodes.internalError;
  if (refusal && !state.refreshTried) {
    return {
      decision: { kind: 'refresh', delayMs: SOCKET_REFRESH_RETRY_MS },
      next: { ...state, refreshTried: true },
    };
  }
  return {
    decision: { kind: 'retry', delayMs: backoffDelayMs(state.attempt), toast: !state.outage },
    next: { attempt: state.attempt + 1, outage: true, refreshTried: state.refreshTried && refusal },
  };
}

/** The state after a successful open; `toast` is true when an outage was announced and is now over. */
export function decideOnOpen(state: ReconnectState): { toast: boolean; next: ReconnectState } {
  return { toast: state.outage, next: initialReconnectState };
}
