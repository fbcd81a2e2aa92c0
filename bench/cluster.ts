// Canopy on a cluster (issue 22): two api replicas with CANOPY_RUNTIME=kubernetes on one fresh PostgreSQL, the
// Kubernetes + Agones stand-in running each GameServer as a real engine process, and the gateway as its own process
// (apps/api/test/support/cluster.ts starts them all). Measures:
//  (1) servers started per second through the driver: SERVERS servers started at once (requests spread over both
//      replicas), from the first request until a browser on replica B was shown the last one ONLINE;
//  (2) status propagation from the engine to a browser on the other replica, over CYCLES start/stop cycles sent to
//      replica A: the engine's SDK Ready (its GameServer turning RequestReady, as a watcher of the cluster sees it)
//      → ONLINE on B's socket, and the GameServer's deletion (the engine gone) → OFFLINE on B's socket;
//  (3) console lines per second delivered to a browser on replica B from an engine printing `flood LINES` (the
//      command sent on replica A; B follows the engine's console stream itself), with latency from the engine's
//      timestamp in each line;
//  (4) what a replica and the gateway (with its ENet front) cost idle: PSS and CPU over 10 s after 10 s idle, with no
//      server running and with SERVERS servers ONLINE (the replicas watch them and read their /stats).
// Run: node bench/cluster.ts   (env: SERVERS=20 CYCLES=30 LINES=50000)
import { cpus, loadavg } from 'node:os';
import { WebSocket } from 'ws';
import { call, ownerOf, startApiCluster } from '../apps/api/test/support/cluster.ts';
import { GATEWAY_ENV } from '../apps/api/test/support/gateway.ts';
import { cpuMs, memoryMb, percentile, processTree } from './lib/api-process.ts';
import { now, statusSocket, watchGameServers } from './lib/cluster-probes.ts';

const SERVERS = Number(process.env.SERVERS ?? 20);
const CYCLES = Number(process.env.CYCLES ?? 30);
const LINES = Number(process.env.LINES ?? 50_000);
const IDLE_MS = Number(process.env.IDLE_MS ?? 10_000);
const FLOOD = / flood (\d+)\/\d+ t=(\d+\.\d+)$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (n=${values.length})`;
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);

/**
 * A power action as the browser sends it, sent again while it answers 409: the previous action's lock is released
 * a moment after the status it caused is shown (the action ends once it has seen the change itself).
 */
async function act(url: string, owner: { id: string; token: string }, name: string, action: 'start' | 'stop') {
  for (;;) {
    const res = await call(url, owner.token, 'POST', `/users/${owner.id}/server/${name}/${action}`);
    if (res.status === 202) return;
    if (res.status !== 409) throw new Error(`${action} answered ${res.status}: ${JSON.stringify(res.body)}`);
    await sleep(10);
  }
}

const cluster = await startApiCluster({
  replicas: 2,
  env: { LOG_LEVEL: 'warn', CANOPY_BENCH_COMMANDS: 'true', CANOPY_HTTP_CONNECTIONS_PER_IP: '64' },
});
const [a, b] = cluster.replicas as [(typeof cluster.replicas)[0], (typeof cluster.replicas)[0]];
const report: string[] = [];

/** PSS and CPU of each process tree over IDLE_MS, after IDLE_MS idle. */
async function idleCost(label: string, processes: [string, number][]) {
  await sleep(IDLE_MS);
  const trees = processes.map(([name, pid]) => ({ name, pids: processTree(pid) }));
  const cpu0 = trees.map((t) => sum(t.pids.map(cpuMs)));
  await sleep(IDLE_MS);
  report.push(`\nIdle cost, ${label} (PSS after ${IDLE_MS / 1000} s idle; CPU over the next ${IDLE_MS / 1000} s):`);
  report.push('| process                  | processes | PSS MB | RSS MB | CPU ms / 10 s |');
  report.push('| ------------------------ | --------- | ------ | ------ | ------------- |');
  trees.forEach((t, i) => {
    const mem = t.pids.map(memoryMb);
    const cpu = sum(t.pids.map(cpuMs)) - (cpu0[i] ?? 0);
    report.push(
      `| ${t.name.padEnd(24)} | ${String(t.pids.length).padEnd(9)} | ${sum(mem.map((m) => m.pss))
        .toFixed(1)
        .padEnd(6)} | ${sum(mem.map((m) => m.rss))
        .toFixed(1)
        .padEnd(6)} | ${String(cpu).padEnd(13)} |`,
    );
  });
}

try {
  const gateway = await cluster.startGateway(GATEWAY_ENV);
  const processes: [string, number][] = [
    ['replica A (leader)', a.proc.child.pid ?? 0],
    ['replica B', b.proc.child.pid ?? 0],
    ['gateway (+ ENet front)', gateway.child.pid ?? 0],
  ];
  await idleCost('no server running', processes);

  // ---- (1) servers started per second ----
  const owners = [];
  for (let i = 0; i < SERVERS; i++) owners.push(await ownerOf(cluster, a.url, `Bench${i}`));
  const sockets = await Promise.all(owners.map((o) => statusSocket(b.url, o)));
  const t0 = now();
  const answers = await Promise.all(
    owners.map((o, i) => call(i % 2 ? b.url : a.url, o.token, 'POST', `/users/${o.id}/server/Bench${i}/start`)),
  );
  const refused = answers.filter((r) => r.status !== 202);
  if (refused.length) throw new Error(`starts refused: ${JSON.stringify(refused.map((r) => r.body))}`);
  const online = await Promise.all(sockets.map((s, i) => s.when(`Bench${i}`, 'ONLINE', t0, 120_000)));
  const startWall = Math.max(...online) - t0;
  report.push(
    `\n(1) ${SERVERS} servers started at once (requests spread over A and B), until B's browsers saw each ONLINE:`,
  );
  report.push(
    `  all ONLINE after ${(startWall / 1000).toFixed(2)} s: ${(SERVERS / (startWall / 1000)).toFixed(2)} servers/s`,
  );
  report.push(`  each, request -> ONLINE on B: ${ms(online.map((t) => t - t0))}`);

  await idleCost(`${SERVERS} servers ONLINE`, processes);

  const t1 = now();
  await Promise.all(
    owners.map((o, i) => call(i % 2 ? a.url : b.url, o.token, 'POST', `/users/${o.id}/server/Bench${i}/stop`)),
  );
  const offline = await Promise.all(sockets.map((s, i) => s.when(`Bench${i}`, 'OFFLINE', t1, 120_000)));
  report.push(
    `  stopping them all at once: ${((Math.max(...offline) - t1) / 1000).toFixed(2)} s until B saw each OFFLINE`,
  );
  for (const s of sockets.slice(1)) s.close();

  // ---- (2) status propagation, engine -> browser on B ----
  const watcher = await watchGameServers(cluster.stand.kubeconfigPath, cluster.stand.namespace);
  const [first] = owners;
  const socket = sockets[0];
  if (!first || !socket) throw new Error('no server');
  const gsName = `canopy-${first.serverId}`;
  const up: number[] = [];
  const down: number[] = [];
  const readyToOnline: number[] = [];
  for (let i = 0; i < CYCLES; i++) {
    const since = now();
    await act(a.url, first, 'Bench0', 'start');
    const shown = await socket.when('Bench0', 'ONLINE', since);
    const requested = watcher.first(gsName, 'RequestReady', since);
    const ready = watcher.first(gsName, 'Ready', since);
    if (requested) up.push(shown - requested.at);
    if (ready) readyToOnline.push(shown - ready.at);
    const stopAt = now();
    await act(a.url, first, 'Bench0', 'stop');
    const gone = await socket.when('Bench0', 'OFFLINE', stopAt);
    const deleted = watcher.first(gsName, 'DELETED', stopAt);
    if (deleted) down.push(gone - deleted.at);
  }
  watcher.stop();
  report.push(`\n(2) Status propagation to a browser on replica B (actions sent to A), ${CYCLES} start/stop cycles:`);
  report.push(`  engine's SDK Ready (RequestReady seen by a watcher) -> ONLINE on B: ${ms(up)}`);
  report.push(`  Agones' Ready (seen by a watcher) -> ONLINE on B:                  ${ms(readyToOnline)}`);
  report.push(`  GameServer deleted (seen by a watcher) -> OFFLINE on B:             ${ms(down)}`);
  report.push(
    `  all ${up.length + down.length} transitions:                                     ${ms([...up, ...down])}`,
  );

  // ---- (3) console lines per second, engine -> browser on B ----
  const since = now();
  await act(a.url, first, 'Bench0', 'start');
  await socket.when('Bench0', 'ONLINE', since);
  report.push(`\n(3) Console: \`flood ${LINES}\` sent on replica A, delivered to a browser on replica B:`);
  report.push(await floodAcross(first));
} finally {
  console.log(report.join('\n'));
  console.log(
    `\nload average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${cpus().length} cores`,
  );
  await cluster.close();
}

/** Floods the server's console from A and counts what a subscribed browser on B receives; one line of results. */
async function floodAcross(owner: { id: string; token: string }): Promise<string> {
  const ws = (url: string) => new WebSocket(`${url.replace('http', 'ws')}/ws/${owner.id}?token=${owner.token}&batch=1`);
  const viewer = ws(b.url);
  const latencies: number[] = [];
  let firstAt = 0;
  let lastAt = 0;
  /** The engine's own timestamps of the first and last line received: how fast it printed them. */
  let printedFrom = Number.POSITIVE_INFINITY;
  let printedTo = 0;
  const errors: string[] = [];
  let subscribed = false;
  viewer.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'console_history') subscribed = true;
    if (m.type === 'error') errors.push(m.payload.message);
    const lines: string[] =
      m.type === 'console_batch' ? m.payload.lines : m.type === 'console_log' ? [m.payload.line] : [];
    const at = now();
    for (const line of lines) {
      const f = FLOOD.exec(line);
      if (!f) continue;
      const printed = Number(f[2]);
      latencies.push(at - printed);
      printedFrom = Math.min(printedFrom, printed);
      printedTo = Math.max(printedTo, printed);
      firstAt ||= at;
      lastAt = at;
    }
  });
  await new Promise((r) => viewer.once('open', r));
  viewer.send(JSON.stringify({ type: 'console_subscribe' }));
  while (!subscribed) await sleep(10);
  // The command goes in on A, whose socket does not subscribe: only B follows the engine's console.
  const sender = ws(a.url);
  sender.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'error') errors.push(m.payload.message);
  });
  await new Promise((r) => sender.once('open', r));
  sender.send(JSON.stringify({ type: 'console_command', payload: { command: `flood ${LINES} 0` } }));
  // Done when every line came, or nothing more came for 5 s.
  let seen = -1;
  while (latencies.length < LINES && latencies.length !== seen) {
    seen = latencies.length;
    await sleep(5000);
  }
  viewer.close();
  sender.close();
  if (latencies.length === 0)
    return `  no flood line reached B (${errors.join('; ') || 'the engine in the pod may not offer bench commands'})`;
  const seconds = (lastAt - firstAt) / 1000;
  return [
    `  delivered ${latencies.length}/${LINES} lines in ${seconds.toFixed(2)} s: ${(latencies.length / seconds).toFixed(0)} lines/s (the engine printed them in ${((printedTo - printedFrom) / 1000).toFixed(2)} s)`,
    `  engine's timestamp -> browser on B: ${ms(latencies)}`,
  ].join('\n');
}
