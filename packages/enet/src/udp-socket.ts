// The UDP socket a host runs on. Node resolves the address of every send through a lookup, and its default
// (dns.lookup) answers an IP literal on the next tick: a deferred call per datagram, measurable at tens of
// thousands of datagrams a second. A host only ever sends to addresses datagrams came from, which are literals,
// so its socket answers them at once. Its own module, so a sleeping engine can hold its port loading no ENet.
// That also lets a host build every datagram in one reused buffer (host.ts, transmit).

import { createSocket, type Socket } from 'node:dgram';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;

/** dgram's lookup for a socket that is only given IPv4 literals. */
function literalLookup(address: string, _options: unknown, callback: LookupCallback): void {
  callback(null, address, 4);
}

const literal = new WeakSet<Socket>();

/** An unbound IPv4 UDP socket for an EnetHost. */
export function createHostSocket(): Socket {
  const socket = createSocket({ type: 'udp4', reuseAddr: false, lookup: literalLookup as never });
  literal.add(socket);
  return socket;
}

/**
 * Whether `send` hands this socket's datagrams to the kernel before it returns (or queues them holding the
 * buffer, which getSendQueueCount tells): true of createHostSocket's sockets only. Others resolve the address on a
 * later tick, reading the buffer then.
 */
export function sendsAtOnce(socket: Socket): boolean {
  return literal.has(socket);
}
