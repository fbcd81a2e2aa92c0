// The UDP socket a host runs on. Node resolves the address of every send through a lookup, and its default
// (dns.lookup) answers an IP literal on the next tick: a deferred call per datagram, measurable at tens of
// thousands of datagrams a second. A host only ever sends to addresses datagrams came from, which are literals,
// so its socket answers them at once. Its own module, so a sleeping engine can hold its port loading no ENet.

import { createSocket, type Socket } from 'node:dgram';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;

/** dgram's lookup for a socket that is only given IPv4 literals. */
function literalLookup(address: string, _options: unknown, callback: LookupCallback): void {
  callback(null, address, 4);
}

/** An unbound IPv4 UDP socket for an EnetHost. */
export function createHostSocket(): Socket {
  return createSocket({ type: 'udp4', reuseAddr: false, lookup: literalLookup as never });
}
