// What an EnetHost is given: its socket, its listener, and the bounds it keeps per peer (host.ts).

import type { Socket } from 'node:dgram';
import type { HeaderKind } from './datagram.ts';
import { MAXIMUM_PEER_ID } from './protocol.ts';
import type { ReassemblyLimits } from './reassembly.ts';

export interface HostEvents {
  connect(peer: number): void;
  receive(peer: number, data: Buffer, channelId: number): void;
  disconnect(peer: number): void;
}

export interface HostOptions {
  /** A bound UDP socket the host takes over (and closes on close()). */
  socket: Socket;
  peerLimit: number;
  /** The header clients send: 'new' for the game client, 'standard' for plain ENet clients (tests). */
  header?: HeaderKind;
  /** Range-code what we send when it is smaller. Off by default: the client accepts both, and it costs CPU. */
  compress?: boolean;
  /** Peers one IP address other than loopback may hold at once (players behind one NAT share an address). */
  perAddressLimit?: number;
  /** Channels offered; a client asking for more gets this many. */
  channelLimit?: number;
  /** A reliable command unacknowledged this long, or silence this long, drops the peer. */
  timeoutMs?: number;
  /** A CONNECT whose VERIFY_CONNECT is not acknowledged within this long is forgotten. */
  connectTimeoutMs?: number;
  pingIntervalMs?: number;
  flushIntervalMs?: number;
  /** Bytes a peer may have waiting to be sent before it counts as not keeping up and is dropped. */
  maxQueuedBytes?: number;
  reassembly?: ReassemblyLimits;
}

/** The options with every default filled in. */
export type HostSettings = Required<Omit<HostOptions, 'socket' | 'header' | 'reassembly'>>;

/** Client packets are small: a server facing strangers holds far less for them than ENet's defaults allow. */
export const DEFAULT_REASSEMBLY: ReassemblyLimits = { maxPacketSize: 64 * 1024, maxHeld: 256, maxAssemblies: 4 };

export function withDefaults(options: HostOptions): HostSettings {
  return {
    peerLimit: Math.min(options.peerLimit, MAXIMUM_PEER_ID),
    compress: options.compress ?? false,
    perAddressLimit: options.perAddressLimit ?? 32,
    channelLimit: options.channelLimit ?? 2,
    timeoutMs: options.timeoutMs ?? 15_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    pingIntervalMs: options.pingIntervalMs ?? 1000,
    flushIntervalMs: options.flushIntervalMs ?? 10,
    maxQueuedBytes: options.maxQueuedBytes ?? 16 * 1024 * 1024,
  };
}
