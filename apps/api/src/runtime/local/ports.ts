import { createSocket } from 'node:dgram';

/** The lowest port of the range that no server holds, or null when the range is full. */
export function pickPort(range: { from: number; to: number }, used: Set<number>, skip: Set<number> = new Set()) {
  for (let port = range.from; port <= range.to; port++) if (!used.has(port) && !skip.has(port)) return port;
  return null;
}

/** True when nothing on this machine holds the UDP port. */
export function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, '0.0.0.0', () => socket.close(() => resolve(true)));
  });
}

/** Allocates a game port: free in the database and on the machine (another program may hold one). */
export async function allocatePort(range: { from: number; to: number }, used: Set<number>): Promise<number | null> {
  const busy = new Set<number>();
  for (;;) {
    const port = pickPort(range, used, busy);
    if (port === null) return null;
    if (await udpPortFree(port)) return port;
    busy.add(port);
  }
}
