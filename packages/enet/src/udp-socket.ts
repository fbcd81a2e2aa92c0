// The UDP socket a host runs on. Node resolves the address of every send through a lookup, and its default
// (dns.lookup) answers an IP literal on the next tick: a deferred call per datagram, measurable at tens of
// thousands of datagrams a second. A host only ever sends to addresses datagrams came from, which are literals,
// so its socket answers them at once. Its own module, so a sleeping engine can hold its port loading no ENet.
// That also lets a host build every datagram in one reused buffer (host.ts, transmit).

import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns';
import { isIPv4 } from 'node:net';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;

/** dgram's lookup (for sends and for bind): an IPv4 literal at once, a name (a bind to HOST=localhost) by DNS. */
function literalLookup(address: string, _options: unknown, callback: LookupCallback): void {
  if (isIPv4(address)) callback(null, address, 4);
  else lookup(address, { family: 4 }, callback);
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
