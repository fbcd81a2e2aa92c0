import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

// A test-only stand-in for a load balancer in front of api replicas, as a Kubernetes Service with readiness behaves:
// a backend gets traffic only while its GET /readyz answers 200 (polled, as the kubelet does), new backends start
// unready, and a connection refused is tried on the next backend (nothing was sent yet). Round robin, one backend
// connection per request (no pooling: the balancer never sends a request on a socket the backend is closing), and
// WebSocket upgrades piped through. Never a production component: the chart's Service and Ingress are that.

/** How often each backend's /readyz is asked. */
const PROBE_MS = 200;
// Hop-by-hop headers are the balancer's own business on each side.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

/** The balancer's address and its backends. */
export interface Balancer {
  url: string;
  /** Starts sending traffic to `url` once its /readyz answers 200. */
  add(url: string): void;
  /** Stops sending it anything (the backend was deleted). */
  remove(url: string): void;
  /** True while the last probe of `url` answered 200. */
  ready(url: string): boolean;
  close(): Promise<void>;
}

interface Backend {
  host: string;
  port: number;
  ready: boolean;
  timer: NodeJS.Timeout;
}

/** Starts the balancer on a free port of 127.0.0.1 in front of `backends` (http://127.0.0.1:port each). */
export async function startBalancer(backends: string[]): Promise<Balancer> {
  const pool = new Map<string, Backend>();
  const sockets = new Set<Socket>();
  let next = 0;

  const probe = (url: string) => {
    const backend = pool.get(url);
    if (!backend) return;
    fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (res) => {
        backend.ready = res.status === 200;
        void res.body?.cancel();
      },
      () => {
        backend.ready = false;
      },
    );
  };
  const add = (url: string) => {
    const { hostname, port } = new URL(url);
    pool.set(url, { host: hostname, port: Number(port), ready: false, timer: setInterval(() => probe(url), PROBE_MS) });
    probe(url);
  };
  /** The ready backends from the next one in turn, each once: what a request tries, in order. */
  const candidates = () => {
    const ready = [...pool.values()].filter((b) => b.ready);
    next = (next + 1) % Math.max(ready.length, 1);
    return [...ready.slice(next), ...ready.slice(0, next)];
  };
  const refused = (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED';

  const forward = (req: IncomingMessage, body: Buffer, res: import('node:http').ServerResponse, tries: Backend[]) => {
    const backend = tries.shift();
    if (!backend) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready backend');
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    const upstream = httpRequest({
      host: backend.host,
      port: backend.port,
      method: req.method,
      path: req.url,
      headers: { ...headers, 'content-length': String(body.length), 'x-forwarded-for': req.socket.remoteAddress },
      agent: false,
    });
    upstream.on('response', (answer) => {
      const kept = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      res.writeHead(answer.statusCode ?? 502, kept as Record<string, string | string[]>);
      answer.pipe(res);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (refused(error)) {
        backend.ready = false;
        return forward(req, body, res, tries);
      }
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end();
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, candidates()));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, client: Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const tries = candidates();
    const attempt = () => {
      const backend = tries.shift();
      if (!backend) return void client.destroy();
      const upstream = connect(backend.port, backend.host);
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (refused(error)) {
          backend.ready = false;
          return attempt();
        }
        client.destroy();
      });
      upstream.once('connect', () => {
        sockets.add(upstream);
        upstream.once('close', () => sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
      });
    };
    attempt();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  for (const backend of backends) add(backend);
  return {
    url,
    add,
    remove(backendUrl) {
      const backend = pool.get(backendUrl);
      if (backend) clearInterval(backend.timer);
      pool.delete(backendUrl);
    },
    ready: (backendUrl) => pool.get(backendUrl)?.ready ?? false,
    async close() {
      for (const backend of pool.values()) clearInterval(backend.timer);
      pool.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
