/** Packets a peer may send per second (a moving client sends about 20 state updates); more are dropped. */
export const PACKETS_PER_SECOND = 60;
/** A peer sending this many in one second is disconnected: no client plays like that. */
export const DISCONNECT_AT = PACKETS_PER_SECOND * 4;

/** A fixed one-second window per peer. */
export interface RateWindow {
  start: number;
  count: number;
}

/** 'ok' to handle the packet, 'drop' to ignore it, 'cut' to disconnect the peer. */
export function admit(w: RateWindow, now: number): 'ok' | 'drop' | 'cut' {
  if (now - w.start >= 1000) {
    w.start = now;
    w.count = 0;
  }
  w.count++;
  if (w.count >= DISCONNECT_AT) return 'cut';
  return w.count > PACKETS_PER_SECOND ? 'drop' : 'ok';
}
