import type { Logger } from '../log.ts';
import type { GameNetwork } from './game-network.ts';

/** Longest a change in players online waits to be printed: a burst of joins prints one line. */
const PLAYERS_LINE_MS = 1000;

/**
 * Prints `Players online: N` (contract ENGINE_PLAYERS_MESSAGE) when the count has changed, at most once per
 * `delayMs`. The api reads player counts from this line instead of polling every engine
 * (docs/decisions/0023-density.md).
 */
export function announcePlayers(
  net: Pick<GameNetwork, 'onlinePlayers' | 'onPlayersChanged'>,
  log: Logger,
  delayMs = PLAYERS_LINE_MS,
) {
  let printed = 0;
  let timer: NodeJS.Timeout | null = null;
  net.onPlayersChanged(() => {
    timer ??= setTimeout(() => {
      timer = null;
      const online = net.onlinePlayers().length;
      if (online === printed) return;
      printed = online;
      log.info(`Players online: ${online}`);
    }, delayMs);
    timer.unref(); // a pending line never keeps a stopping engine alive
  });
}
