import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that a test can freeze (bytes are held both ways, as a server stopped with
 * SIGSTOP holds them: connections open, nothing answered), cut (every connection dropped and the port closed,
 * as a server that went down) and bring back on the same port.
 */
export interface PgProxy {
  port: number;
  freeze(): void;
  thaw(): void;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a relay on a free local port to PostgreSQL at host:port. */
export async function startPgProxy(upstream: { host: string; port: number }): Promise<PgProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
    if (frozen) s.pause();
  };
  // Written by hand rather than with pipe(): a piped socket may resume by itself, a paused one with a data
  // listener stays paused.
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => to.write(chunk));
    from.on('end', () => to.end());
    from.on('close', () => to.destroy());
  };
  const onConnection = (client: Socket) => {
    const server = tcpConnect(upstream.port, upstream.host);
    track(client);
    track(server);
    relay(client, server);
    relay(server, client);
  };
  let listener: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, '127.0.0.1', () => {
        const address = listener.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const port = await listen(0);
  const cut = async () => {
    await new Promise<void>((resolve) => {
      listener.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  };
  return {
    port,
    freeze() {
      frozen = true;
      for (const s of sockets) s.pause();
    },
    thaw() {
      frozen = false;
      for (const s of sockets) s.resume();
    },
    cut,
    async restore() {
      listener = createServer(onConnection);
      await listen(port);
    },
    close: cut,
  };
}
