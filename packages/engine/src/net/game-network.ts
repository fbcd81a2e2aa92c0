import type { RemoteInfo, Socket } from 'node:dgram';
import { createHostSocket } from '@canopy/enet/udp-socket';
import type { Logger } from '../log.ts';
import { errorMessage } from '../log.ts';
import type { PlayersRepo } from '../players/players.repo.ts';
import type { WorldsRepo } from '../worlds/worlds.repo.ts';
import type { Awake } from './awake.ts';
import type { NonceBook } from './game/login.ts';

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
   * The control API wrote or deleted a world (upper-case name): if players are in it, they get the stored one
   * at once and what the game held unsaved is dropped, so it cannot overwrite the edit.
   */
  worldChanged(name: string): void;
  /** Writes what the game holds unsaved of one world (upper-case name) to the database now. */
  flushWorld(name: string): void;
  /** The control API wrote a player: if they are online, their session takes the stored inventory at once. */
  playerChanged(name: string): void;
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
  /** The CDN named to clients; undefined: the game's own. */
  cdn?: { host: string; path: string } | undefined;
  /** The live config the game reads: creators.json and server-config.json as last (re)loaded. */
  gameConfig: () => { creators: readonly string[]; autofarmDelay: number };
  /** Nonces of spent game tokens, kept in the database (a token logs in once, across restarts). */
  usedTokens: NonceBook;
  dataDir: string;
  /** The engine's control secret: game tokens carry a MAC keyed from it. */
  secret: string;
  peerLimit: number;
  /** How long the host stays up with no peer before the engine sleeps again. */
  sleepAfterMs: number;
  /** Test only: accept the standard ENet header (clients other than the game's; see @canopy/enet's host). */
  standardHeader: boolean;
  bindHost?: string;
}

/** Binds the sleeping socket; rejects with PortInUseError when the port is taken. */
function holdPort(port: number, host: string): Promise<Socket> {
  const socket = createHostSocket();
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
 * Whether a datagram could be an ENet CONNECT to this port: peerID 0xFFF and, in the game client's header,
 * integrity words naming the port. Read here, byte by byte, so a sleeping engine loads nothing of ENet.
 */
function mayBeConnect(b: Buffer, port: number, standardHeader: boolean): boolean {
  const at = standardHeader ? 0 : 6;
  if (b.length <= at + 8) return false; // header with sentTime, checksum, then (maybe range-coded) commands
  if (!standardHeader && (b.readUInt16BE(0) ^ b.readUInt16BE(2)) !== port) return false;
  return (b.readUInt16BE(at) & 0xfff) === 0xfff;
}

/** Datagrams kept while ENet is being loaded on a wake; the client retries anything past these. */
const EARLY_DATAGRAMS = 64;

/**
 * The game port. Asleep (docs/decisions/0026-playable-servers.md): a plain dgram socket holds it and nothing
 * of the game is loaded. The first datagram wakes it: the ENet host takes the same socket over and gets that
 * datagram and any that came while it loaded. After `sleepAfterMs` with no peer it sleeps again.
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
      socket.on('error', (error) => log.error(`Game socket: ${error.message}`));
      socket.once('message', wake);
      log.info('Game network asleep (no players)');
    } catch (error) {
      log.error(`Game port could not be held again: ${errorMessage(error)}`);
    }
  };

  // Kept across sleep and wake: recent world creations (a sleep must not reset a player's quota). Spent tokens
  // are kept in the database (options.usedTokens).
  const kept = { worldCreations: new Map<number, number[]>() };

  function wake(first: Buffer, from: RemoteInfo) {
    const held = socket;
    if (waking || awake || closed || !held) return;
    if (!mayBeConnect(first, port, options.standardHeader)) {
      held.once('message', wake); // a stray datagram (a scan, a stale peer) does not wake the engine
      return;
    }
    socket = undefined;
    const early: [Buffer, RemoteInfo][] = [[first, from]];
    const keep = (msg: Buffer, rinfo: RemoteInfo) => {
      if (early.length < EARLY_DATAGRAMS) early.push([msg, rinfo]);
    };
    held.on('message', keep);
    waking = (async () => {
      try {
        const { wakeGame } = await import('./awake.ts');
        const started = wakeGame(
          { ...options, port },
          held,
          () => {
            for (const listener of listeners) listener();
          },
          () => void sleep(),
          kept,
        );
        awake = started;
        held.off('message', keep);
        for (const [msg, rinfo] of early) started.receive(msg, rinfo);
        log.info(`Game network awake on port ${port}`);
      } catch (error) {
        log.error(`Game network could not wake: ${errorMessage(error)}`);
        held.off('message', keep);
        if (!closed) {
          socket = held;
          held.once('message', wake);
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
    worldChanged: (name) => awake?.game.worldEdited(name),
    flushWorld: (name) => awake?.game.flushWorld(name),
    playerChanged: (name) => awake?.game.playerEdited(name),
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
