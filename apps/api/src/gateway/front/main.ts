/**
 * The gateway's ENet front as its own process (ADR 0026: a panic in the native ENet module must not take the
 * api down). The api starts it and writes one JSON line on its stdin (the gateway key travels there, never in
 * argv or the environment others can read); it prints `FRONT READY udp=<port>` once bound, and exits when
 * its stdin closes (the api is gone) or on SIGTERM.
 */
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { Front } from './front.ts';

interface FrontStart {
  key: string;
  host: string;
  port: number;
  publicIp: string;
}

interface NativeHost {
  readonly port: number;
  setEmitter(emitter: (event: string, peer: number, channel?: number, data?: Buffer) => void): void;
  service(): void;
  flush(): boolean;
  send(peer: number, data: Buffer, channel: number): boolean;
  peerCount(): number;
  getPeer(peer: number): {
    ip: string;
    disconnectLater(host: NativeHost, data: number): boolean;
    disconnectNow(host: NativeHost, data: number): boolean;
  };
}

const PEER_LIMIT = 1024;
const CHANNELS = 2;

function readStart(): Promise<FrontStart> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdin });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as FrontStart);
      } catch (error) {
        reject(error);
      }
    });
    lines.once('close', () => reject(new Error('stdin closed before the start line')));
  });
}

const start = await readStart().catch((error: Error) => {
  console.error(`front: ${error.message}`);
  process.exit(2);
});
// The api going away closes our stdin: nothing else would stop this process then.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

// Only the native Host of growtopia.js: its packet classes are never used (our packets are our own code).
const { Host } = createRequire(import.meta.url)('growtopia.js') as {
  Host: new (
    ip: string,
    port: number,
    peers: number,
    channels: number,
    newPacketClient: boolean,
    newPacketServer: boolean,
    incoming: null,
    outgoing: null,
    compressor: boolean,
    checksum: boolean,
    seed: null,
  ) => NativeHost;
};
const host = new Host(
  start.host,
  start.port,
  PEER_LIMIT,
  CHANNELS,
  // Clients send the game's "new packet" header; we answer with the standard one.
  false,
  true,
  null,
  null,
  true,
  true,
  null,
);

const guard = (what: string, fn: () => void) => {
  try {
    fn();
  } catch (error) {
    // A vanished peer makes the native calls throw; the peer is gone either way.
    console.error(`front: ${what}: ${(error as Error).message}`);
  }
};

const front = new Front({
  key: Buffer.from(start.key, 'base64'),
  publicIp: start.publicIp,
  log: (line) => console.log(`front: ${line}`),
  transport: {
    send: (peer, data) => guard('send', () => host.send(peer, data, 0)),
    disconnectLater: (peer) => guard('disconnect', () => host.getPeer(peer).disconnectLater(host, 0)),
    disconnectNow: (peer) => guard('disconnect', () => host.getPeer(peer).disconnectNow(host, 0)),
  },
});

host.setEmitter((event, peer, _channel, data) => {
  const now = Date.now();
  if (event === 'connect') {
    let ip = 'unknown';
    guard('peer', () => {
      ip = host.getPeer(peer).ip;
    });
    front.connected(peer, ip, now);
  } else if (event === 'raw' && data) front.received(peer, data, now);
  else if (event === 'disconnect') front.disconnected(peer);
});

// growtopia.js 2.2.0's service() hands over at most one event and then sleeps about 10 ms in native code, idle
// or not (measured), so one call per turn: stdin's end and the sweep still run every turn. This caps the front
// near 100 ENet events a second (about 30 redirects); the process has nothing else to do.
const IDLE_WAIT_MS = 50;
let lastSweep = 0;
const loop = () => {
  guard('service', () => {
    host.service();
    host.flush();
  });
  const now = Date.now();
  if (now - lastSweep >= 500) {
    lastSweep = now;
    front.sweep(now);
  }
  if (host.peerCount() > 0 || front.peerCount > 0) setImmediate(loop);
  else setTimeout(loop, IDLE_WAIT_MS);
};
loop();
process.on('SIGTERM', () => process.exit(0));
console.log(`FRONT READY udp=${host.port}`);
