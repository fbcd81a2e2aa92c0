// One GameServer's Agones SDK server (the sidecar's part): gRPC agones.dev.sdk.SDK on a loopback port, plus the
// sidecar's HTTP gateway for the calls a REST client makes, and its health checking (pkg/sdkserver in Agones).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  status as grpcStatus,
  Server,
  ServerCredentials,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type { KubeObject } from './resources.ts';
import { Empty, gameServerBytes, sdkService } from './sdk-messages.ts';

/** How the SDK server reads and changes its GameServer (through the API, as the sidecar does). */
export interface SdkHost {
  current(): KubeObject | undefined;
  /** Applies `change` to the GameServer's newest version and writes it; nothing when it is gone or going. */
  update(change: (gs: KubeObject) => void): void;
}

/** States the SDK cannot move a GameServer out of. */
const FINAL = new Set(['Unhealthy', 'Shutdown', 'Error']);

/** The SDK's request messages, as far as the server reads them. */
interface Request {
  getSeconds?: () => number;
  getKey?: () => string;
  getValue?: () => string;
}

export class SdkServer {
  grpcPort = 0;
  httpPort = 0;
  /** Health pings received, for tests. */
  pings = 0;
  private grpc = new Server();
  private http: HttpServer;
  private host: SdkHost;
  private watchers = new Set<ServerWritableStream<unknown, unknown>>();
  private timers: NodeJS.Timeout[] = [];
  private lastHealth = Date.now();
  private failures = 0;

  constructor(host: SdkHost) {
    this.host = host;
    const unary =
      (fn: (request: Request) => void) =>
      (call: ServerUnaryCall<Request, unknown>, callback: sendUnaryData<unknown>) => {
        try {
          fn(call.request);
          callback(null, new Empty());
        } catch (error) {
          callback({ code: grpcStatus.INTERNAL, details: (error as Error).message });
        }
      };
    this.grpc.addService(sdkService, {
      ready: unary(() => this.setState('RequestReady')),
      allocate: unary(() => this.setState('Allocated')),
      shutdown: unary(() => this.setState('Shutdown')),
      reserve: unary((r) => this.reserve(r.getSeconds?.() ?? 0)),
      // SetLabel / SetAnnotation write agones.dev/sdk-<key>, as the sidecar does.
      setLabel: unary((r) =>
        this.host.update((gs) => {
          gs.metadata.labels = { ...gs.metadata.labels, [`agones.dev/sdk-${r.getKey?.()}`]: r.getValue?.() ?? '' };
        }),
      ),
      setAnnotation: unary((r) =>
        this.host.update((gs) => {
          gs.metadata.annotations = {
            ...gs.metadata.annotations,
            [`agones.dev/sdk-${r.getKey?.()}`]: r.getValue?.() ?? '',
          };
        }),
      ),
      health: (call: ServerReadableStream<Request, unknown>, callback: sendUnaryData<unknown>) => {
        call.on('data', () => this.ping());
        call.on('end', () => callback(null, new Empty()));
        call.on('error', () => {});
      },
      getGameServer: (_call: ServerUnaryCall<Request, unknown>, callback: sendUnaryData<unknown>) => {
        const gs = this.host.current();
        if (gs) callback(null, gameServerBytes(gs));
        else callback({ code: grpcStatus.NOT_FOUND, details: 'gameserver not found' });
      },
      watchGameServer: (call: ServerWritableStream<unknown, unknown>) => {
        this.watchers.add(call);
        call.on('cancelled', () => this.watchers.delete(call));
        call.on('close', () => this.watchers.delete(call));
        const gs = this.host.current();
        if (gs) call.write(gameServerBytes(gs));
      },
    });
    this.http = createServer((req, res) => {
      const routes: Record<string, () => unknown> = {
        'POST /ready': () => this.setState('RequestReady'),
        'POST /health': () => this.ping(),
        'POST /shutdown': () => this.setState('Shutdown'),
        'POST /allocate': () => this.setState('Allocated'),
        'GET /gameserver': () => this.host.current(),
      };
      const route = routes[`${req.method} ${req.url}`];
      req.resume();
      if (!route) return void res.writeHead(404).end();
      req.on('end', () =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(route() ?? {})),
      );
    });
  }

  /** Listens on two free loopback ports and starts health checking per the GameServer's spec.health. */
  async start(health: {
    disabled?: boolean;
    periodSeconds?: number;
    failureThreshold?: number;
    initialDelaySeconds?: number;
  }): Promise<this> {
    this.grpcPort = await new Promise<number>((resolve, reject) =>
      this.grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      ),
    );
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    this.httpPort = (this.http.address() as AddressInfo).port;
    if (!health.disabled) {
      const period = (health.periodSeconds ?? 5) * 1000;
      this.lastHealth = Date.now();
      // As Agones' sdkserver: each period without a ping is a failure; failureThreshold in a row is Unhealthy.
      this.timers.push(
        setTimeout(
          () => {
            this.timers.push(
              setInterval(() => {
                this.failures = Date.now() - this.lastHealth > period ? this.failures + 1 : 0;
                if (this.failures >= (health.failureThreshold ?? 3)) this.setState('Unhealthy');
              }, period),
            );
          },
          (health.initialDelaySeconds ?? 5) * 1000,
        ),
      );
    }
    return this;
  }

  /** Sends the GameServer's new version to every WatchGameServer stream. */
  changed(gs: KubeObject): void {
    for (const call of this.watchers) call.write(gameServerBytes(gs));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    for (const call of this.watchers) call.end();
    this.watchers.clear();
    this.grpc.forceShutdown();
    this.http.closeAllConnections();
    this.http.close();
  }

  private ping(): void {
    this.pings++;
    this.lastHealth = Date.now();
  }

  private setState(state: string, extra: Record<string, unknown> = {}): void {
    this.host.update((gs) => {
      if (FINAL.has(gs.status?.state)) return;
      gs.status = { ...gs.status, state, ...extra };
    });
  }

  private reserve(seconds: number): void {
    const until = seconds > 0 ? new Date(Date.now() + seconds * 1000) : undefined;
    this.setState('Reserved', until ? { reservedUntil: `${until.toISOString().slice(0, 19)}Z` } : {});
    // The controller moves a reservation that ran out back to Ready.
    if (until)
      this.timers.push(
        setTimeout(() => {
          if (this.host.current()?.status?.state === 'Reserved') this.setState('Ready', { reservedUntil: null });
        }, seconds * 1000),
      );
  }
}
