// Loaded only when an engine wakes (net/game-network.ts): ENet, the codec and the game flow.
import { gameServerKey } from '@canopy/contract/game-token';
import { openEnetHost } from './enet/host.ts';
import { createGameServer, type GameServer } from './game/game-server.ts';
import { type ItemsData, loadItemsData } from './game/items-data.ts';
import type { GameNetworkOptions } from './game-network.ts';

/** How often an awake network checks whether it has been empty long enough to sleep. */
const SLEEP_CHECK_MS = 1000;
/**
 * Least time awake after a wake, whatever `sleepAfterMs` says: the datagram that woke us was lost, and the
 * client's connect retry comes about a second later.
 */
const WAKE_GRACE_MS = 5000;

/** An awake game network: the ENet host and the game on it. */
export interface Awake {
  game: GameServer;
  close(): Promise<void>;
}

/** Binds the ENet host on the port the sleeping socket let go of; calls `sleepAgain` after `sleepAfterMs` empty. */
export async function wakeGame(
  options: GameNetworkOptions,
  playersChanged: () => void,
  sleepAgain: () => void,
  seenNonces: Map<string, number>,
): Promise<Awake> {
  const { log } = options;
  let items: Promise<ItemsData> | undefined;
  const game = createGameServer({
    log,
    worlds: options.worlds,
    players: options.players,
    serverKey: gameServerKey(options.secret),
    // Read once per wake: the effective items.dat is rebuilt only by a restart.
    items: () => {
      items ??= loadItemsData(options.dataDir);
      return items;
    },
    playersChanged,
    seenNonces,
  });
  const host = await openEnetHost(
    { port: options.port, peerLimit: options.peerLimit, standardHeader: options.standardHeader },
    { ...game.events, error: (message) => log.error(`ENet: ${message}`) },
  );
  game.attach(host);
  const wokeAt = Date.now();
  let emptySince = wokeAt;
  const check = setInterval(
    () => {
      if (host.peerCount() > 0 || game.sessionCount() > 0) emptySince = Date.now();
      else if (Date.now() - emptySince >= options.sleepAfterMs && Date.now() - wokeAt >= WAKE_GRACE_MS) {
        clearInterval(check);
        sleepAgain();
      }
    },
    Math.min(SLEEP_CHECK_MS, Math.max(50, options.sleepAfterMs / 4)),
  );
  check.unref();

  return {
    game,
    async close() {
      clearInterval(check);
      game.saveAll();
      game.disconnectAll();
      game.attach(undefined);
      await host.close();
    },
  };
}
