// A UDP relay between our client and a server, for tests that drop or inject datagrams on the way.

import { createSocket, type RemoteInfo } from 'node:dgram';

export type Direction = 'toServer' | 'toClient';

export interface Relay {
  port: number;
  seen: { direction: Direction; length: number; dropped: boolean }[];
  /** Drops the next datagram going that way. */
  dropNext: (direction: Direction) => void;
  /** Sends raw bytes to the client as if the server had. */
  injectToClient: (datagram: Buffer) => void;
  close: () => Promise<void>;
}

/** Starts a relay on a free port forwarding to 127.0.0.1:serverPort. */
export async function startRelay(serverPort: number): Promise<Relay> {
  const socket = createSocket('udp4');
  let client: RemoteInfo | null = null;
  const armed = new Set<Direction>();
  const seen: Relay['seen'] = [];
  socket.on('message', (msg, rinfo) => {
    const direction: Direction = rinfo.port === serverPort ? 'toClient' : 'toServer';
    if (direction === 'toServer') client = rinfo;
    const dropped = armed.delete(direction);
    seen.push({ direction, length: msg.length, dropped });
    if (dropped) return;
    if (direction === 'toServer') socket.send(msg, serverPort, '127.0.0.1');
    else if (client) socket.send(msg, client.port, client.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    seen,
    dropNext: (direction) => armed.add(direction),
    injectToClient: (datagram) => {
      if (client) socket.send(datagram, client.port, client.address);
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
