/** Packets a peer may send per second (a moving client sends about 20 state updates); more are dropped. */
export const PACKETS_PER_SECOND = 60;
/** A peer sending this many in one second is disconnected: no client plays like that. */
export const DISCONNECT_AT = PACKETS_PER_SECOND * 4;
/** Chat lines a player may send per CHAT_WINDOW_MS: a spammer fills everyone's console, not the packet budget. */
export const CHAT_LINES = 5;
export const CHAT_WINDOW_MS = 5000;
/** In-game commands (lines starting with `/`) a player may send per CHAT_WINDOW_MS, apart from chat. */
export const COMMAND_LINES = 10;
/** What a player over the chat limit is told. */
export const SLOW_DOWN_COMMANDS = `\`4Slow down!\`\` You can use ${COMMAND_LINES} commands every ${CHAT_WINDOW_MS / 1000} seconds.`;
export const SLOW_DOWN = `\`4Slow down!\`\` You can chat ${CHAT_LINES} times every ${CHAT_WINDOW_MS / 1000} seconds.`;
/** New worlds one player may create per WORLD_CREATION_WINDOW_MS (each is generated and stored for good). */
export const WORLD_CREATIONS = 3;
export const WORLD_CREATION_WINDOW_MS = 60_000;

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

/**
 * A sliding window: true (and `now` is recorded) when fewer than `limit` of `times` lie within the last
 * `windowMs`. Unlike the packet window it cannot be doubled at a window's edge.
 */
export function allow(times: number[], limit: number, windowMs: number, now: number): boolean {
  while (times.length > 0 && now - (times[0] as number) >= windowMs) times.shift();
  if (times.length >= limit) return false;
  times.push(now);
  return true;
}
