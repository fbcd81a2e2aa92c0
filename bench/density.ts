// Density: how many hosted servers one machine holds, and what they cost while idle.
// Run: npm run bench:density   (env: TARGET=500 IDLE_S=30 SETTLE_S=5 MIN_AVAILABLE_GB=4 PORTS=42000-42999)
// Starts servers one after another through the api until TARGET are ONLINE or MemAvailable drops under
// MIN_AVAILABLE_GB (a hard floor: the machine is shared), then prints servers reached, PSS per server,
// api RSS, the host's idle CPU over IDLE_S seconds (split into api, engines and the rest) and the
// start → ONLINE p99 of the last 50 starts. Everything is stopped at the end, on an error and on Ctrl-C.
// The idle window opens SETTLE_S after the last start: engines started within the last minute are still
// finishing start-up work (0.23 ms CPU/s each 15 s after the last of 500 started, 0.02 once settled), so
// SETTLE_S=60 shows what a steady idle host costs.
import { existsSync, readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { benchUser, call, cpuMs, enginePids, memoryMb, percentile, startBenchApi } from './lib/api-process.ts';

const TARGET = Number(process.env.TARGET ?? 500);
const IDLE_S = Number(process.env.IDLE_S ?? 30);
const SETTLE_S = Number(process.env.SETTLE_S ?? 5);
const MIN_AVAILABLE_GB = Math.max(4, Number(process.env.MIN_AVAILABLE_GB ?? 4));
const PORTS = process.env.PORTS ?? '42000-42999';

/** MemAvailable of the whole machine, in GB. */
function availableGb() {
  const kb = Number(/^MemAvailable:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  return kb / 1024 / 1024;
}

/** The host's busy and total jiffies (all cores) from /proc/stat. */
function hostJiffies() {
  const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** CPU jiffies (user + system, 10 ms each, as in /proc/stat) a process has used; 0 when it is gone. */
const processJiffies = (pid: number) => cpuMs(pid) / 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const api = await startBenchApi({
  CANOPY_GAME_PORTS: PORTS,
  // The scheduler (expiry, storage pass over every data directory) keeps the api's 60 s unless SCHEDULER_MS says.
  ...(process.env.SCHEDULER_MS ? { CANOPY_SCHEDULER_INTERVAL_MS: process.env.SCHEDULER_MS } : {}),
});
let stopping: Promise<void> | null = null;
const stopAll = () => {
  stopping ??= (async () => {
    const pids = enginePids(api.dataDir);
    await api.stop().catch(() => {});
    // The api stops its engines on exit; anything it left behind is ended here, by pid.
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  })();
  return stopping;
};
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    console.log(`\n${sig}: stopping every server…`);
    void stopAll().then(() => process.exit(130));
  });

/** Resolves when the owner's socket hears ONLINE for their server; rejects on OFFLINE after a start or timeout. */
function startAndWait(id: string, token: string, name: string): Promise<number> {
  const ws = new WebSocket(`${api.base.replace('http', 'ws')}/ws/${id}?token=${token}`);
  let timer: NodeJS.Timeout | undefined;
  return new Promise<number>((resolve, reject) => {
    let t0 = 0;
    timer = setTimeout(() => reject(new Error(`${name}: not ONLINE within 60 s`)), 60_000);
    // The socket first says where the server stands (OFFLINE); the start is asked for after that line, so
    // only what follows the request counts.
    ws.on('message', async (data) => {
      const m = JSON.parse(String(data));
      if (m.type !== 'status_update') return;
      if (t0) {
        if (m.payload.status === 'ONLINE') resolve(performance.now() - t0);
        else if (m.payload.status === 'OFFLINE') reject(new Error(`${name}: start failed`));
        return;
      }
      t0 = performance.now();
      const res = await call(api.base, token, 'POST', `/users/${id}/server/${name}/start`);
      if (res.status >= 300) reject(new Error(`${name}: start answered ${res.status} ${JSON.stringify(res.body)}`));
    });
    ws.once('error', reject);
  }).finally(() => {
    clearTimeout(timer);
    ws.close(1000);
  });
}

try {
  console.log(
    `Node ${process.version}, SQLite, local runtime; target ${TARGET}, stop under ${MIN_AVAILABLE_GB} GB free`,
  );
  console.log(
    `machine: ${availableGb().toFixed(1)} GB available, load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  const startTimes: number[] = [];
  const failures: string[] = [];
  let stopReason = `target ${TARGET} reached`;
  const t0 = performance.now();
  for (let i = 0; startTimes.length < TARGET; i++) {
    if (availableGb() < MIN_AVAILABLE_GB) {
      stopReason = `MemAvailable under ${MIN_AVAILABLE_GB} GB`;
      break;
    }
    const name = `dens${i}`;
    const u = await benchUser(api.base, `densuser${i}`);
    const created = await call(api.base, u.token, 'POST', `/users/${u.id}/server`, { serverName: name });
    if (created.status >= 300) {
      stopReason = `create refused: ${created.status} ${JSON.stringify(created.body)}`;
      break;
    }
    try {
      startTimes.push(await startAndWait(u.id, u.token, name));
    } catch (error) {
      // One failed start (a game port taken by another program meanwhile, a start timeout on a loaded
      // machine) is reported and skipped; a few mean something is wrong.
      failures.push((error as Error).message);
      console.log(`  ${(error as Error).message} (skipped)`);
      if (failures.length < 5) continue;
      stopReason = `${failures.length} failed starts`;
      break;
    }
    if (startTimes.length % 50 === 0)
      console.log(
        `  ${startTimes.length} ONLINE after ${((performance.now() - t0) / 1000).toFixed(0)} s, ${availableGb().toFixed(1)} GB available, last start ${startTimes.at(-1)?.toFixed(0)} ms`,
      );
  }
  const reached = startTimes.length;
  console.log(`stopped adding: ${stopReason}`);

  await sleep(SETTLE_S * 1000); // the last starts settle (item catalog, first stats poll, start-up garbage)
  const pids = enginePids(api.dataDir).filter((pid) => existsSync(`/proc/${pid}`)); // a failed start leaves none
  const apiPid = api.child.pid ?? 0;
  const h0 = hostJiffies();
  const a0 = processJiffies(apiPid);
  const e0 = pids.reduce((s, p) => s + processJiffies(p), 0);
  await sleep(IDLE_S * 1000);
  const h1 = hostJiffies();
  const a1 = processJiffies(apiPid);
  const e1 = pids.reduce((s, p) => s + processJiffies(p), 0);
  const pct = (j: number) => ((100 * j) / (h1.total - h0.total)).toFixed(1);

  const pss = pids.reduce((s, p) => s + memoryMb(p).pss, 0);
  const apiMem = memoryMb(apiPid);
  const last50 = startTimes.slice(-50);
  console.log(`\nservers ONLINE: ${reached} (${pids.length} engine processes, ${failures.length} failed starts)`);
  console.log(`PSS per server: ${(pss / Math.max(1, pids.length)).toFixed(1)} MB (engines' PSS sum / count)`);
  console.log(`api: RSS ${apiMem.rss.toFixed(0)} MB, PSS ${apiMem.pss.toFixed(0)} MB`);
  console.log(
    `idle CPU of the host over ${IDLE_S} s: ${pct(h1.busy - h0.busy)} % of the machine (api ${pct(a1 - a0)} %, engines ${pct(e1 - e0)} %, rest ${pct(h1.busy - h0.busy - (a1 - a0) - (e1 - e0))} %) (goal < 10 %)`,
  );
  // Jiffies are 10 ms: per second of wall time, what one engine and the api spend.
  const perS = (j: number) => ((j * 10) / IDLE_S).toFixed(2);
  console.log(
    `  per idle engine ${perS((e1 - e0) / Math.max(1, pids.length))} ms CPU/s; api ${perS(a1 - a0)} ms CPU/s; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  console.log(
    `start -> ONLINE, last ${last50.length}: p50 ${percentile(last50, 50).toFixed(0)} ms, p99 ${percentile(last50, 99).toFixed(0)} ms; all: p99 ${percentile(startTimes, 99).toFixed(0)} ms`,
  );
  console.log(`machine after: ${availableGb().toFixed(1)} GB available`);
} finally {
  const t = performance.now();
  await stopAll();
  console.log(`stopped everything in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
