// Agones' port allocator for Dynamic and Passthrough ports: a host port from the range that no GameServer holds
// and, since this "node" is a machine shared with other programs, that is free right now.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

async function free(port: number, protocol: string): Promise<boolean> {
  const udp = () =>
    new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '0.0.0.0', () => socket.close(() => resolve(true)));
    });
  const tcp = () =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
    });
  if (protocol === 'TCP') return tcp();
  if (protocol === 'UDP') return udp();
  return (await udp()) && tcp();
}

export class PortAllocator {
  private min: number;
  private max: number;
  private held = new Set<number>();

  constructor(range: [number, number]) {
    [this.min, this.max] = range;
  }

  /** A free port of the range (starting at a random point, so that two stand-ins rarely collide). */
  async allocate(protocol: string): Promise<number> {
    const size = this.max - this.min + 1;
    const start = Math.floor(Math.random() * size);
    for (let i = 0; i < size; i++) {
      const port = this.min + ((start + i) % size);
      if (this.held.has(port)) continue;
      this.held.add(port);
      if (await free(port, protocol)) return port;
      this.held.delete(port);
    }
    throw new Error(`no free port left in ${this.min}-${this.max}`);
  }

  /** Marks a port as taken (a Static port, or one found on a GameServer). */
  hold(port: number): void {
    this.held.add(port);
  }

  release(port: number): void {
    this.held.delete(port);
  }
}
