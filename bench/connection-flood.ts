// One client floods the api with idle sockets and the gateway with TLS handshakes; another measures /status.
// The attacker (127.0.0.1) opens IDLE_SOCKETS idle TCP connections to the api (with RECONNECT_MS, it reopens each
// one the api closes after that delay) and opens TLS connections to the gateway's HTTPS from LANES parallel loops; the probe (127.0.0.2, its own
// per-address limits) GETs /status at PROBE_RATE. Prints /status p50/p99 and the api's event-loop delay without and
// under attack (issue 21 items 5 and 6, ADR 0032). LIMITS=off raises the per-address limits to see the thread alone.
// Run: node bench/connection-flood.ts
//   (env: IDLE_SOCKETS=1000 LANES=32 BENCH_SECONDS=10 PROBE_RATE=50 LIMITS=on RECONNECT_MS=off)

import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { percentile, startBenchApi } from './lib/api-process.ts';

const IDLE_SOCKETS = Number(process.env.IDLE_SOCKETS ?? 1000);
const LANES = Number(process.env.LANES ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROBE_RATE = Number(process.env.PROBE_RATE ?? 50);
const LIMITS = process.env.LIMITS !== 'off';
const RECONNECT_MS = process.env.RECONNECT_MS === undefined ? null : Number(process.env.RECONNECT_MS);
const ATTACKER = '127.0.0.1';
const PROBE_FROM = '127.0.0.2';

const probeFile = join(process.env.TMPDIR ?? '/tmp', `canopy-loop-probe-${process.pid}.json`);
const api = await startBenchApi({
  NODE_OPTIONS: `${process.env.API_NODE_OPTIONS ?? ''} --import=${new URL('./lib/loop-probe.ts', import.meta.url).pathname}`,
  CANOPY_LOOP_PROBE_FILE: probeFile,
  CANOPY_GATEWAY: 'on',
  CANOPY_GATEWAY_TLS_PORT: '0',
  CANOPY_GATEWAY_UDP_PORT: '0',
  CANOPY_PUBLIC_IP: '127.0.0.1',
  // The defaults (64 sockets, 30 handshakes then 2/s per address) unless LIMITS=off.
  CANOPY_HTTP_CONNECTIONS_PER_IP: LIMITS ? '' : '1000000',
  CANOPY_GATEWAY_HANDSHAKE_BURST: LIMITS ? '' : '1000000',
  CANOPY_GATEWAY_HANDSHAKES_PER_SECOND: LIMITS ? '' : '1000000',
  CANOPY_GATEWAY_PENDING_HANDSHAKES_PER_IP: LIMITS ? '' : '1000000',
});

const loopFigures = async () => {
  api.child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  return JSON.parse(readFileSync(probeFile, 'utf8')) as { p50: number; p99: number; max: number };
};

/** /status from PROBE_FROM at PROBE_RATE for `ms`, in a worker (this thread is busy attacking). */
const probe = (ms: number) =>
  new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
    const worker = new Worker(new URL('./lib/status-probe.ts', import.meta.url), {
      workerData: { url: `${api.base}/status`, rate: PROBE_RATE, ms, localAddress: PROBE_FROM },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });

const line = (label: string, r: { latencies: number[]; errors: number }, loop: { p99: number; max: number }) =>
  console.log(
    `${label.padEnd(16)} /status p50 ${percentile(r.latencies, 50).toFixed(1)} ms  p99 ${percentile(r.latencies, 99).toFixed(1)} ms  ` +
      `(${r.latencies.length} ok, ${r.errors} failed)   api loop delay p99 ${loop.p99.toFixed(1)} ms  max ${loop.max.toFixed(1)} ms`,
  );

try {
  // The gateway's line follows the panel's.
  let tlsPort = 0;
  for (let i = 0; i < 100 && !tlsPort; i++) {
    tlsPort = Number(/gateway: https on port (\d+)/.exec(api.output())?.[1] ?? 0);
    if (!tlsPort) await new Promise((r) => setTimeout(r, 50));
  }
  if (!tlsPort) throw new Error(`the gateway did not start:\n${api.output()}`);
  const apiPort = Number(new URL(api.base).port);

  await loopFigures(); // drop what start-up cost
  const quiet = await probe(SECONDS * 1000);
  const quietLoop = await loopFigures();

  // The attack: IDLE_SOCKETS idle sockets kept up, and the handshake flood in a worker.
  let attacking = true;
  let opened = 0;
  let closedByApi = 0;
  const idle = new Set<Socket>();
  const openIdle = () => {
    if (!attacking) return;
    opened++;
    const socket = connect({ host: '127.0.0.1', port: apiPort, localAddress: ATTACKER });
    idle.add(socket);
    socket.on('error', () => {});
    socket.resume();
    socket.once('close', () => {
      idle.delete(socket);
      if (!attacking) return;
      closedByApi++;
      if (RECONNECT_MS !== null) setTimeout(openIdle, RECONNECT_MS);
    });
  };
  for (let i = 0; i < IDLE_SOCKETS; i++) openIdle();
  const flood = new Promise<{ tried: number; secure: number; refused: number }>((resolve, reject) => {
    const worker = new Worker(new URL('./lib/tls-flood.ts', import.meta.url), {
      workerData: { port: tlsPort, ms: SECONDS * 1000, lanes: LANES, localAddress: ATTACKER },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const [attacked, handshakes] = await Promise.all([probe(SECONDS * 1000), flood]);
  const attackLoop = await loopFigures();
  const stillOpen = idle.size;
  attacking = false;
  for (const socket of idle) socket.destroy();

  console.log(
    `Node ${process.version}, SQLite, ${SECONDS}s per phase, probe ${PROBE_RATE}/s from ${PROBE_FROM}, attacker ${ATTACKER}, ` +
      `limits ${LIMITS ? 'on (defaults)' : 'off'}\n`,
  );
  console.log(
    `idle sockets: ${IDLE_SOCKETS} at once${RECONNECT_MS === null ? '' : `, each reopened ${RECONNECT_MS} ms after the api closed it`}; ${opened} opened, ${closedByApi} closed by the api, ${stillOpen} open at the end`,
  );
  console.log(
    `TLS handshakes: ${handshakes.tried} tried (${(handshakes.tried / SECONDS).toFixed(0)}/s), ${handshakes.secure} completed ` +
      `(${(handshakes.secure / SECONDS).toFixed(0)}/s), ${handshakes.refused} refused`,
  );
  line('quiet', quiet, quietLoop);
  line('under attack', attacked, attackLoop);
} finally {
  await api.stop();
}
