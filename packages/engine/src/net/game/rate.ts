/** Packets a peer may send per second; more are dropped. */
export const PACKETS_PER_SECOND = 30;
/**
 * A peer sending this many in one second is disconnected: no client plays like that. Twice the limit, not
 * more: the ENet thread hands over about 100 events a second in all (host-worker.ts), so a flooder must be
 * cut before it takes most of them.
 */
export const DISCONNECT_AT = PACKETS_PER_SECOND * 2;

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
