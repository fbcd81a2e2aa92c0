import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from '../log.ts';
import { errorMessage } from '../log.ts';
import type { PlayersRepo } from '../players/players.repo.ts';
import type { WorldsRepo } from '../worlds/worlds.repo.ts';
import type { Awake } from './awake.ts';

/** What the game protocol layer offers the rest of the engine. */
export interface GameNetwork {
  /** The bound UDP port (the real one when 0 was asked for). */
  readonly port: number;
  /** GrowIDs of the players online. */
  onlinePlayers(): string[];
  /** How many players are in a world (upper-case name). */
  playersInWorld(world: string): number;
  /** Disconnects a player; false when they are not online. */
  kick(name: string, reason: string): boolean;
  /** Sends a console message to every player online; tells how many got it. */
  broadcast(message: string): number;
  /**
   * Calls `listener` whenever players join or leave. The engine prints the count from it, which is how the
   * api learns player counts without polling every engine.
   */
  onPlayersChanged(listener: () => void): void;
  /** Writes the worlds players are in to the database now. */
  save(): void;
  /** Saves, disconnects everyone and lets go of the port. */
  close(): Promise<void>;
}

/** The game port could not be bound because something else holds it. */
export class PortInUseError extends Error {}

/** What the network needs besides its port. */
export interface GameNetworkOptions {
  port: number;
  log: Logger;
  worlds: WorldsRepo;
  players: PlayersRepo;
  dataDir: string;
  /** The engine's control secret: game tokens carry a MAC keyed from it. */
  secret: string;
  peerLimit: number;
  /** How long the host stays up with no peer before the engine sleeps again. */
  sleepAfterMs: number;
  /** Test only: accept the standard ENet header (see enet/host.ts). */
  standardHeader: boolean;
  bindHost?: string;
}

/** Binds the sleeping socket; rejects with PortInUseError when the port is taken. */
function holdPort(port: number, host: string): Promise<Socket> {
  const socket = createSocket({ type: 'udp4', reuseAddr: false });
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      socket.close();
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new PortInUseError(`Game port ${port}/udp is not available (${error.code})`)
          : error,
      );
    };
    socket.once('error', onError);
    socket.bind(port, host, () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/**
 * The game port. Asleep (docs/decisions/0026-playable-servers.md): a plain dgram socket holds it and nothing
 * of ENet is loaded. The first datagram wakes it: the socket closes and the ENet host (net/awake.ts) binds the
 * same port; the client's connect retry reaches it. After `sleepAfterMs` with no peer it sleeps again.
 */
export async function bindGameNetwork(options: GameNetworkOptions): Promise<GameNetwork> {
  const { log } = options;
  const bindHost = options.bindHost ?? '0.0.0.0';
  let socket: Socket | undefined = await holdPort(options.port, bindHost);
  const port = socket.address().port;
  const listeners: (() => void)[] = [];
  let awake: Awake | undefined;
  let waking: Promise<void> | undefined;
  let closed = false;

  const sleep = async () => {
    const was = awake;
    awake = undefined;
    await was?.close();
    if (closed) return;
    try {
      socket = await holdPort(port, bindHost);
      socket.once('message', wake);
      log.info('Game network asleep (no players)');
    } catch (error) {
      log.error(`Game port could not be held again: ${errorMessage(error)}`);
    }
  };

  // Used tokens, kept across sleep and wake: a token lives longer than the quiet time before a sleep.
  const seenNonces = new Map<string, number>();

  function wake() {
    if (waking || awake || closed) return;
    waking = (async () => {
      const held = socket;
      socket = undefined;
      await new Promise<void>((done) => (held ? held.close(() => done()) : done()));
      try {
        const { wakeGame } = await import('./awake.ts');
        awake = await wakeGame(
          { ...options, port },
          () => {
            for (const listener of listeners) listener();
          },
          () => void sleep(),
          seenNonces,
        );
        log.info(`Game network awake on port ${port}`);
      } catch (error) {
        log.error(`Game network could not wake: ${errorMessage(error)}`);
        if (!closed) {
          socket = await holdPort(port, bindHost).catch(() => undefined);
          socket?.once('message', wake);
        }
      } finally {
        waking = undefined;
      }
    })();
  }
  socket.on('error', (error) => log.error(`Game socket: ${error.message}`));
  socket.once('message', wake);

  return {
    port,
    onlinePlayers: () => awake?.game.onlinePlayers() ?? [],
    playersInWorld: (world) => awake?.game.playersInWorld(world) ?? 0,
    kick: (name, reason) => awake?.game.kick(name, reason) ?? false,
    broadcast: (message) => awake?.game.broadcast(message) ?? 0,
    onPlayersChanged: (listener) => void listeners.push(listener),
    save: () => awake?.game.saveAll(),
    async close() {
      closed = true;
      await waking;
      await awake?.close();
      awake = undefined;
      await new Promise<void>((done) => (socket ? socket.close(() => done()) : done()));
      socket = undefined;
    },
  };
}
