// Game speed (issue 13, "Speed"): N headless bots (packages/gtclient) in one world of one hosted server, each
// moving at 20 updates/s; for each N: p99 state-update latency (a bot's move sent -> another bot receiving the
// relayed state; the xSpeed field carries a per-bot sequence number), engine CPU % (/proc/<pid>/stat) and RSS
// per player. Every bot receives every other bot's moves; OBSERVERS of them (10) time them, the others do not decode
// them (one process decoding 200 x 199 x 20 states a second would measure itself). Then gateway logins per second (signed token -> ENet front -> engine login, concurrently, ~5 s).
// Goals: 200 players in one world on one core (p99 < 100 ms), 100 logins/s.
// The engine runs under a real api (local runtime, gateway on); the bots are signed tokens of the server's keys,
// so the HTTPS login page's per-IP limits (30/min) are not what is measured.
// The bots' own process is reported too: on a 2-core machine it saturates before the engine does, and then the
// latencies are the bots' (a step whose bots cannot log in ends the stepping).
// Run: node bench/game.ts   (env: BENCH_STEPS=25,50,100,200 BENCH_SECONDS=5 BENCH_LOGIN_SECONDS=5 BENCH_OBSERVERS=10)
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { gameServerKey, signGameToken } from '@canopy/contract/game-token';
import { Bot, type Tank, TankType } from '@canopy/gtclient';
import { DEFAULT_FRONT_LIMITS } from '../apps/api/src/gateway/front/front.ts';
import { loadGatewayKey } from '../apps/api/src/gateway/keys.ts';
import type { ServerRow } from '../apps/api/src/servers/servers.repo.ts';
import { ownerWithServer } from '../apps/api/test/support/factories.ts';
import { GATEWAY_ENV, gatewayPorts } from '../apps/api/test/support/gateway.ts';
import { startApi } from '../apps/api/test/support/harness.ts';
import { waitForStatus } from '../apps/api/test/support/servers.ts';
import { buildPlayer } from '../packages/engine/test/support/factories.ts';

const STEPS = (process.env.BENCH_STEPS ?? '25,50,100,200').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LOGIN_SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 5);
const LOGIN_CONCURRENCY = Number(process.env.BENCH_LOGIN_CONCURRENCY ?? 8);
/** Bots that time what they receive; the others receive everything but do not decode others' moves. */
const OBSERVERS = Number(process.env.BENCH_OBSERVERS ?? 10);
const HZ = 20;
const RING = 2048;
const CLK_TCK = 100;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
/** User and system CPU ticks of a process. */
const cpuTicks = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]), system: Number(f[12]) };
};
/** Machine-wide UDP datagrams sent (/proc/net/snmp): engine and bots together, loopback included. */
const udpOut = () => {
  const lines = readFileSync('/proc/net/snmp', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('Udp:'));
  const [names, values] = lines.map((l) => l.split(/\s+/));
  return Number(values?.[names?.indexOf('OutDatagrams') ?? -1] ?? 0);
};
const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The engine process of a server: the one whose command line names its id. */
function enginePid(serverId: string): number {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(serverId)) return Number(d);
    } catch {}
  }
  throw new Error(`no engine process for ${serverId}`);
}

async function pool<T>(items: T[], width: number, run: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

const api = await startApi('sqlite', GATEWAY_ENV);
const name = `Bench${process.pid % 10000}`;
const owner = await ownerWithServer(api, name);
await api.request('POST', `/users/${owner.user.id}/server/${name}/start`, { token: owner.sessionToken });
await waitForStatus(api, name, 'ONLINE');
const row = await api.ctx.db.get<ServerRow>(
  'SELECT id, owner_id, name, game_port, control_secret, desired_state, created_at, last_crash_at FROM servers WHERE name = ?',
  [name],
);
if (!row) throw new Error('no server row');
const spec = api.ctx.servers.spec(row);
const control = api.ctx.servers.runtime.control(spec.id);
if (!control) throw new Error('no control client');
const keys = { gateway: loadGatewayKey(api.ctx.config.dataDir), server: gameServerKey(spec.secret) };
const front = { host: '127.0.0.1', port: gatewayPorts(api).udpPort };
const pid = enginePid(spec.id);
const maxN = Math.max(...STEPS);

console.log(`game bench: ${cpus().length} cores (${cpus()[0]?.model}); engine pid ${pid}, front udp ${front.port}`);
console.log('NOTE: the bots (one node process), the api and the front share these cores with the engine.');

let growIds = 0;
async function newPlayers(n: number) {
  const names = Array.from({ length: n }, () => `Bot${++growIds}`);
  await pool(names, 16, async (g) => {
    // Throws on an engine error (ControlError).
    await control?.request('PUT', `/players/${g}`, buildPlayer({ inventory: [] }));
  });
  return names;
}

let items: Buffer | undefined;
async function login(growId: string): Promise<Bot> {
  const bot = new Bot({ cachedItems: items, stepTimeoutMs: 20_000 });
  const token = signGameToken({ port: spec.gamePort, server: name, growId }, keys, Date.now());
  await bot.login(front, { token });
  items ??= bot.items ?? undefined;
  return bot;
}

// ---- N bots in one world ----
const idleRss = rssMb(pid);
const sendTimes = new Map<number, Float64Array>();
let latencies: number[] = [];
let expected = 0;
let recording = false;
const bots: { bot: Bot; seq: number; times: Float64Array; observer: boolean }[] = [];
let observers = 0;
let door = { x: 0, y: 0 };
let largestOk = 0;
const results: string[] = [];

for (const n of STEPS) {
  const loginStart = performance.now();
  const fresh = await newPlayers(n - bots.length);
  const joined = await pool(fresh, LOGIN_CONCURRENCY, async (g) => {
    const bot = await login(g);
    await bot.enterGame();
    const world = await bot.join('BENCH');
    door = world.spawn;
    const times = new Float64Array(RING);
    sendTimes.set(bot.netId, times);
    const observer = observers < OBSERVERS;
    if (observer) {
      observers++;
      bot.on('tank', (t: Tank) => {
        if (!recording || t.type !== TankType.state) return;
        const sent = sendTimes.get(t.netId)?.[t.xSpeed % RING];
        if (sent) latencies.push(performance.now() - sent);
      });
    }
    bots.push({ bot, seq: 0, times, observer });
  }).then(
    () => true,
    (error: Error) => {
      console.log(
        `N=${String(n).padStart(3)}  a bot could not log in and join: ${error.message}; not stepping further`,
      );
      return false;
    },
  );
  if (!joined) break;
  const joinSeconds = (performance.now() - loginStart) / 1000;
  // Every bot moves 20 times a second, spread over the 50 ms tick.
  const timers = bots.map((b, i) =>
    setTimeout(
      () => {
        const t = setInterval(() => {
          b.seq++;
          const x = b.seq % RING;
          b.times[x] = performance.now();
          if (recording) expected += observers - (b.observer ? 1 : 0);
          try {
            b.bot.move(door.x + (b.seq % 16), door.y, { x }); // a few pixels to and fro; xSpeed carries the key
          } catch {}
        }, 1000 / HZ);
        timers[i] = t;
      },
      (i * (1000 / HZ)) / bots.length,
    ),
  );
  await sleep(1000);
  latencies = [];
  expected = 0;
  const ticks0 = cpuTicks(pid);
  const ours0 = process.cpuUsage();
  const udp0 = udpOut();
  const t0 = performance.now();
  recording = true;
  await sleep(SECONDS * 1000);
  recording = false;
  const elapsed = (performance.now() - t0) / 1000;
  const ticks = cpuTicks(pid);
  const percent = (t: number) => (t / CLK_TCK / elapsed) * 100;
  const cpu = percent(ticks.user - ticks0.user + ticks.system - ticks0.system);
  const cpuSystem = percent(ticks.system - ticks0.system);
  const ours = process.cpuUsage(ours0);
  const datagrams = (udpOut() - udp0) / elapsed;
  const botsCpu = ((ours.user + ours.system) / 1e6 / elapsed) * 100;
  for (const t of timers) {
    clearTimeout(t);
    clearInterval(t);
  }
  const received = latencies.length;
  const sorted = latencies.sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const rss = rssMb(pid);
  const delivered = expected ? (received / expected) * 100 : 0;
  const ok = p99 < 100 && delivered > 95;
  if (ok) largestOk = n;
  const line =
    `N=${String(n).padStart(3)}  p50 ${p50.toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  delivered ${delivered.toFixed(1)}% ` +
    `(${received}/${expected})  engine CPU ${cpu.toFixed(0)}% (${cpuSystem.toFixed(0)}% in the kernel) (bots ${botsCpu.toFixed(0)}%)  UDP ${(datagrams / 1000).toFixed(1)}k datagrams/s  RSS ${rss.toFixed(1)} MB ` +
    `(${((rss - idleRss) / n).toFixed(2)} MB/player over idle ${idleRss.toFixed(1)} MB)  logins+joins ${joinSeconds.toFixed(1)} s`;
  console.log(line);
  results.push(line);
  if (n === maxN || p99 > 2000) {
    if (n !== maxN) console.log('p99 over 2 s: not stepping further');
    break;
  }
  await sleep(500);
}
console.log(`largest N with p99 < 100 ms (and >95% delivered): ${largestOk || 'none'}`);
console.log(`goal 200 players in one world on one core: ${largestOk >= 200 ? 'met' : 'NOT met'}`);
for (const { bot } of bots) bot.enet?.disconnectNow();
bots.length = 0;
await sleep(2000);

// ---- gateway logins per second ----
const loginNames = await newPlayers(Math.ceil(LOGIN_SECONDS * 400));
let done = 0;
let failed = 0;
let nextName = 0;
const loginTimes: number[] = [];
const until = performance.now() + LOGIN_SECONDS * 1000;
const l0 = performance.now();
await Promise.all(
  Array.from({ length: LOGIN_CONCURRENCY }, async () => {
    while (performance.now() < until && nextName < loginNames.length) {
      const g = loginNames[nextName++] as string;
      const s = performance.now();
      try {
        const bot = await login(g);
        loginTimes.push(performance.now() - s);
        done++;
        bot.enet?.disconnectNow();
      } catch (error) {
        if (failed++ === 0) console.log(`first failed login: ${(error as Error).message}`);
      }
    }
  }),
);
const loginElapsed = (performance.now() - l0) / 1000;
const perSecond = done / loginElapsed;
const lt = loginTimes.sort((a, b) => a - b);
console.log(
  `gateway logins: ${done} in ${loginElapsed.toFixed(1)} s = ${perSecond.toFixed(1)}/s (${LOGIN_CONCURRENCY} at once, ` +
    `the front's per-IP cap is ${DEFAULT_FRONT_LIMITS.peersPerIp}), ${failed} failed, login p50 ${percentile(lt, 50).toFixed(0)} ms p99 ${percentile(lt, 99).toFixed(0)} ms`,
);
console.log(`goal 100 logins/s: ${perSecond >= 100 ? 'met' : 'NOT met'}`);
await api.close();
process.exit(0);
