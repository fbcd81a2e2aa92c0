// Loaded only when an engine wakes (net/game-network.ts): ENet, the codec and the game flow.
import type { RemoteInfo, Socket } from 'node:dgram';
import { gameServerKey } from '@canopy/contract/game-token';
import { EnetHost } from '@canopy/enet';
import { createGameServer, type GameDeps, type GameServer } from './game/game-server.ts';
import { type ItemsData, loadItemsData } from './game/items-data.ts';
import type { GameNetworkOptions } from './game-network.ts';

/** How often an awake network checks whether it has been empty long enough to sleep. */
const SLEEP_CHECK_MS = 1000;
/** Least time awake after a wake, whatever `sleepAfterMs` says: the client that woke us is still connecting. */
const WAKE_GRACE_MS = 5000;

/** An awake game network: the ENet host and the game on it. */
export interface Awake {
  game: GameServer;
  /** Hands the host a datagram that arrived while it was being set up. */
  receive(msg: Buffer, rinfo: RemoteInfo): void;
  close(): Promise<void>;
}

/** Starts ENet on the sleeping socket; calls `sleepAgain` after `sleepAfterMs` with nobody on. */
export function wakeGame(
  options: GameNetworkOptions,
  socket: Socket,
  playersChanged: () => void,
  sleepAgain: () => void,
  kept: Pick<GameDeps, 'worldCreations'>,
): Awake {
  const { log } = options;
  let items: Promise<ItemsData> | undefined;
  const game = createGameServer({
    log,
    worlds: options.worlds,
    players: options.players,
    nonces: options.usedTokens,
    config: options.gameConfig,
    cdn: options.cdn,
    serverKey: gameServerKey(options.secret),
    // Read once per wake: the effective items.dat is rebuilt only by a restart.
    items: () => {
      items ??= loadItemsData(options.dataDir);
      return items;
    },
    playersChanged,
    ...kept,
  });
  const host = new EnetHost(
    { socket, peerLimit: options.peerLimit, header: options.standardHeader ? 'standard' : 'new' },
    game.events,
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
    receive: (msg, rinfo) => host.receive(msg, rinfo),
    async close() {
      clearInterval(check);
      game.saveAll();
      game.disconnectAll();
      game.attach(undefined);
      await host.close();
    },
  };
}
