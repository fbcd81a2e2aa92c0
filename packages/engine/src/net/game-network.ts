import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from '../log.ts';

/**
 * What the game protocol layer offers the rest of the engine. Today it only holds the UDP port;
 * the ENet/Growtopia protocol (a later issue) implements the same interface.
 */
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
  /** Lets go of the port. */
  close(): Promise<void>;
}

/** The game port could not be bound because something else holds it. */
export class PortInUseError extends Error {}

/**
 * Binds the UDP game port and holds it. Datagrams are counted and dropped until the protocol
 * exists, so nobody is ever online.
 */
export function bindGameNetwork(port: number, log: Logger, host = '0.0.0.0'): Promise<GameNetwork> {
  const socket: Socket = createSocket({ type: 'udp4', reuseAddr: false });
  let datagrams = 0;
  socket.on('message', (_msg, from) => {
    if (datagrams++ === 0)
      log.debug(`First game datagram from ${from.address}:${from.port} (protocol not implemented yet)`);
  });
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
      socket.on('error', (error) => log.error(`Game socket: ${error.message}`));
      resolve({
        port: socket.address().port,
        onlinePlayers: () => [],
        playersInWorld: () => 0,
        kick: () => false,
        broadcast: () => 0,
        onPlayersChanged: () => {}, // nobody is ever online yet
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}
