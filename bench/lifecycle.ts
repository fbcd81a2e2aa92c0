// Hosting lifecycle figures: start→ONLINE latency, status propagation to many sockets, memory per server.
// Run: npm run bench:lifecycle   (env: CYCLES=20 CLIENTS=1000 SERVERS=50)
import { WebSocket } from 'ws';
import { benchUser, call, enginePids, memoryMb, percentile, startBenchApi } from './lib/api-process.ts';

const CYCLES = Number(process.env.CYCLES ?? 20);
const CLIENTS = Number(process.env.CLIENTS ?? 1000);
const SERVERS = Number(process.env.SERVERS ?? 50);

type Status = { name: string; status: string };
const api = await startBenchApi({ CANOPY_GAME_PORTS: '40000-40199' });

/** Opens a socket for the user; `onStatus` sees every status_update. */
function socket(id: string, token: string, onStatus: (s: Status) => void): Promise<WebSocket> {
  const ws = new WebSocket(`${api.base.replace('http', 'ws')}/ws/${id}?token=${token}`);
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'status_update') onStatus(m.payload);
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

try {
  console.log(`Node ${process.version}, SQLite, local runtime, one machine\n`);
  // 1. start → ONLINE, measured from the request to the status_update that says ONLINE.
  const owner = await benchUser(api.base, 'benchowner');
  await call(api.base, owner.token, 'POST', `/users/${owner.id}/server`, { serverName: 'benchsrv' });
  let waiter: { want: string; resolve: () => void } | null = null;
  const ws = await socket(owner.id, owner.token, (s) => {
    if (waiter && s.status === waiter.want) waiter.resolve();
  });
  const until = (want: string) => new Promise<void>((resolve) => (waiter = { want, resolve }));
  const startTimes: number[] = [];
  for (let i = 0; i < CYCLES; i++) {
    const online = until('ONLINE');
    const t = performance.now();
    await call(api.base, owner.token, 'POST', `/users/${owner.id}/server/benchsrv/start`);
    await online;
    startTimes.push(performance.now() - t);
    const offline = until('OFFLINE');
    await call(api.base, owner.token, 'POST', `/users/${owner.id}/server/benchsrv/stop`);
    await offline;
  }
  console.log(
    `start -> ONLINE over ${CYCLES} cycles: p50 ${percentile(startTimes, 50).toFixed(0)} ms, p99 ${percentile(startTimes, 99).toFixed(0)} ms (goal p99 < 1000 ms)`,
  );

  // 2. An engine exits; how long until each of many connected browsers hears OFFLINE?
  const online = until('ONLINE');
  await call(api.base, owner.token, 'POST', `/users/${owner.id}/server/benchsrv/start`);
  await online;
  let killedAt = 0;
  const heard: number[] = [];
  const clients: WebSocket[] = [];
  for (let i = 0; i < CLIENTS; i++)
    clients.push(
      await socket(owner.id, owner.token, (s) => {
        if (killedAt && s.status === 'OFFLINE' && heard.length < CLIENTS) heard.push(performance.now() - killedAt);
      }),
    );
  const [pid] = enginePids(api.dataDir);
  killedAt = performance.now();
  process.kill(pid ?? 0, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (heard.length < CLIENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  console.log(
    `engine exit -> OFFLINE on ${heard.length}/${CLIENTS} sockets: p50 ${percentile(heard, 50).toFixed(1)} ms, p99 ${percentile(heard, 99).toFixed(1)} ms (goal p99 < 100 ms)`,
  );
  for (const c of clients) c.close(1000);
  ws.close(1000);
  await new Promise((r) => setTimeout(r, 3000)); // the crash restart settles

  // 3. Memory with many servers running at once.
  const users = [owner];
  for (let i = 1; i < SERVERS; i++) users.push(await benchUser(api.base, `benchuser${i}`));
  for (let i = 1; i < SERVERS; i++) {
    const u = users[i];
    if (!u) continue;
    await call(api.base, u.token, 'POST', `/users/${u.id}/server`, { serverName: `benchsrv${i}` });
    await call(api.base, u.token, 'POST', `/users/${u.id}/server/benchsrv${i}/start`);
  }
  const waitAll = Date.now() + 120_000;
  for (;;) {
    const feed = await (await fetch(`${api.base}/status`)).json();
    const up = feed.hostedServers.filter((s: Status) => s.status === 'ONLINE').length;
    if (up >= SERVERS || Date.now() > waitAll) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 3000)); // idle
  const pids = enginePids(api.dataDir);
  const engines = pids.map(memoryMb);
  const apiMem = memoryMb(api.child.pid ?? 0);
  const sum = (k: 'rss' | 'pss') => engines.reduce((a, e) => a + e[k], 0);
  const n = pids.length;
  console.log(`${n} servers running, idle:`);
  console.log(`  engine RSS mean ${(sum('rss') / n).toFixed(1)} MB (counts the shared Node binary in every process)`);
  console.log(`  engine PSS mean ${(sum('pss') / n).toFixed(1)} MB, api PSS ${apiMem.pss.toFixed(0)} MB`);
  console.log(
    `  per hosted server, supervisor included: ${((sum('pss') + apiMem.pss) / n).toFixed(1)} MB PSS (goal < 50 MB)`,
  );
} finally {
  await api.stop();
}
