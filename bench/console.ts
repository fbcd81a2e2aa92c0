// One engine printing as fast as it can to many subscribed console sockets.
// For each client count: delivered %, lines/s per client, end-to-end latency p50/p99, WebSocket frames per client
// per second, the api's CPU seconds per 100k lines (its own utime+stime from /proc, over the flood) and its memory
// (peak, and with a client that stopped reading). Each count gets a fresh api, so no history of an earlier run is
// counted. Run: npm run bench:console   (env: CLIENTS=1,10,50 LINES=100000 RATE=25000; RATE=0 = max)
import { loadavg } from 'node:os';
import { WebSocket } from 'ws';
import { benchUser, call, cpuMs, memoryMb, percentile, startBenchApi } from './lib/api-process.ts';

const CLIENT_COUNTS = (process.env.CLIENTS ?? '1,10,50').split(',').map(Number);
const LINES = Number(process.env.LINES ?? 100_000);
/** Lines per second the engine prints; 0 = as fast as it can. */
const RATE = Number(process.env.RATE ?? 25_000);
const FLOOD = / flood (\d+)\/\d+ t=(\d+\.\d+)$/;
/** Sockets opened per signed-in user, under the api's per-user cap. */
const SOCKETS_PER_USER = 10;
const now = () => performance.timeOrigin + performance.now();

interface Client {
  ws: WebSocket;
  received: number;
  frames: number;
  first: number;
  last: number;
  latencies: number[];
}

async function run(CLIENTS: number) {
  // flood exists only in engines of an api started for a benchmark.
  const api = await startBenchApi({ CANOPY_BENCH_COMMANDS: 'true' });
  try {
    const owner = await benchUser(api.base, 'consolebench');
    await call(api.base, owner.token, 'POST', `/users/${owner.id}/server`, { serverName: 'consolebench' });
    await call(api.base, owner.token, 'POST', `/users/${owner.id}/server/consolebench/start`);
    for (;;) {
      const feed = await (await fetch(`${api.base}/status`)).json();
      if (feed.hostedServers[0]?.status === 'ONLINE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The api caps sockets per user, so the browsers belong to the owner and console-only collaborators.
    const viewers = [owner];
    for (let i = 1; i < Math.ceil((CLIENTS + 1) / SOCKETS_PER_USER); i++) {
      const helper = await benchUser(api.base, `consolebench${i}`);
      await call(api.base, owner.token, 'POST', `/users/${owner.id}/server/collaborators`, {
        discordId: helper.id,
        permissions: ['console:use'],
      });
      viewers.push(helper);
    }
    let opened = 0;

    const open = (onLines: (lines: string[]) => void) =>
      new Promise<WebSocket>((resolve, reject) => {
        const user = viewers[Math.floor(opened++ / SOCKETS_PER_USER)] ?? owner;
        const ws = new WebSocket(`${api.base.replace('http', 'ws')}/ws/${user.id}?token=${user.token}&batch=1`);
        ws.on('message', (data) => {
          const m = JSON.parse(String(data));
          if (m.type === 'console_log') onLines([m.payload.line]);
          else if (m.type === 'console_batch') onLines(m.payload.lines);
          else if (m.type === 'error') console.error(m.payload.message);
        });
        ws.once('open', () => {
          ws.send(JSON.stringify({ type: 'console_subscribe' }));
          resolve(ws);
        });
        ws.once('error', reject);
      });

    const clients: Client[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const c: Client = {
        ws: undefined as unknown as WebSocket,
        received: 0,
        frames: 0,
        first: 0,
        last: 0,
        latencies: [],
      };
      c.ws = await open((lines) => {
        const t = now();
        let flood = false;
        for (const line of lines) {
          // A cheap test per line (not the command's echo): the clients share the api's two cores, and their own
          // queueing counts as latency.
          if (!line.includes(' t=') || !line.includes(' flood ')) continue;
          flood = true;
          if (c.received === 0) c.first = t;
          c.received++;
          c.last = t;
          if (c.received % 20 === 0) {
            const m = FLOOD.exec(line);
            if (m) c.latencies.push(t - Number(m[2]));
          }
        }
        if (flood) c.frames++;
      });
      clients.push(c);
    }
    // A browser tab that stops reading (a frozen laptop): its socket is paused for the whole run.
    const stalled = await open(() => {});
    stalled.pause();
    await new Promise((r) => setTimeout(r, 500));

    const apiPid = api.child.pid ?? 0;
    const base = memoryMb(apiPid).rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryMb(apiPid).rss);
    }, 50);

    const started = now();
    const cpuBefore = cpuMs(apiPid) / 1000;
    const clientCpuBefore = process.cpuUsage();
    clients[0]?.ws.send(JSON.stringify({ type: 'console_command', payload: { command: `flood ${LINES} ${RATE}` } }));
    const deadline = Date.now() + 120_000;
    let lastProgress = -1;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      const total = clients.reduce((a, c) => a + c.received, 0);
      if (total === CLIENTS * LINES) break;
      if (total !== lastProgress) {
        lastProgress = total;
        quietSince = Date.now();
      } else if (Date.now() - quietSince > 3000) break; // lines were dropped for someone; stop waiting
      await new Promise((r) => setTimeout(r, 50));
    }
    // The api's CPU over the flood (after a loss this includes the 3 s of waiting, when the api is idle).
    const cpu = cpuMs(apiPid) / 1000 - cpuBefore;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const flooding = (now() - started) / 1000;
    clearInterval(sampler);
    const after = memoryMb(apiPid).rss;

    const seconds = (c: Client) => (c.last - c.first) / 1000 || 1;
    const rates = clients.map((c) => c.received / seconds(c));
    const frames = clients.map((c) => c.frames / seconds(c));
    const latencies = clients.flatMap((c) => c.latencies);
    const complete = clients.filter((c) => c.received === LINES).length;
    const delivered = (100 * clients.reduce((a, c) => a + c.received, 0)) / (CLIENTS * LINES);
    console.log(
      `\n${CLIENTS} console clients + 1 stalled client, ${LINES} lines from one engine at ${RATE || 'max'} lines/s (load average ${loadavg()[0]?.toFixed(1)})`,
    );
    console.log(
      `delivered ${delivered.toFixed(1)} % (complete to ${complete}/${CLIENTS} clients) in ${((now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(
      `lines/s per client: min ${Math.min(...rates).toFixed(0)}, median ${percentile(rates, 50).toFixed(0)} (goal >= 20000)`,
    );
    console.log(
      `end-to-end latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (goal p50 < 5, p99 < 50 ms)`,
    );
    console.log(
      `frames per client: median ${percentile(frames, 50).toFixed(0)}/s, max ${Math.max(...frames).toFixed(0)}/s`,
    );
    console.log(`api CPU: ${((cpu * 100_000) / LINES).toFixed(2)} s per 100k lines`);
    // Near a full core, the clients' own queueing is part of the latency above (they share the api's cores).
    console.log(
      `bench clients CPU: ${((clientCpu.user + clientCpu.system) / 1e4 / flooding).toFixed(0)} % of a core over the flood`,
    );
    console.log(
      `api RSS: before ${base.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB (stalled client still connected)`,
    );
    for (const c of clients) c.ws.close(1000);
    stalled.terminate();
  } finally {
    await api.stop();
  }
}

console.log(
  `Node ${process.version}; clients run in this process; api CPU goal (0.7x MCSManager): 0.49 / 0.77 / 1.27 s per 100k lines at 1 / 10 / 50 clients`,
);
for (const clients of CLIENT_COUNTS) await run(clients);
