// Backup Manager speed: create and restore of an engine database of about 100 MB while 10 clients write
// worlds. Prints create and restore times, the engine's longest event-loop stall during the create, and the
// world-write latency p99 during it. Goals: create < 2 s, restore < 2 s, stall < 50 ms.
// Run: node bench/backup.ts   (env: BENCH_DB_MB=100 BENCH_WRITERS=10)
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchUser, call, enginePids, percentile, startBenchApi } from './lib/api-process.ts';

const TARGET_MB = Number(process.env.BENCH_DB_MB ?? 100);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 10);
const ms = (n: number) => `${n.toFixed(0)} ms`;

// The engines inherit NODE_OPTIONS and TMPDIR (and nothing else, see engine-process.ts): this preload
// measures each process's event-loop delay and writes it to $TMPDIR/loop-<pid>.json on SIGUSR2.
const work = mkdtempSync(join(tmpdir(), 'canopy-bench-backup-'));
const probe = join(work, 'probe.mjs');
writeFileSync(
  probe,
  `import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
process.on('SIGUSR2', () => {
  writeFileSync(\`\${process.env.TMPDIR}/loop-\${process.pid}.json\`, JSON.stringify({ max: h.max / 1e6, p99: h.percentile(99) / 1e6 }));
  h.reset();
});
`,
);
async function loopFigures(pid: number): Promise<{ max: number; p99: number }> {
  const file = join(work, `loop-${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      await sleep(10);
    }
  }
  throw new Error('the engine did not write its loop figures');
}

/** A 200x200 world of random tiles: it does not compress, so each one adds a few hundred KB. */
function noisyWorld(template: Record<string, unknown>) {
  const random = () => Math.floor(Math.random() * 60000);
  const blocks = Array.from({ length: 200 * 200 }, () => ({ fg: random(), bg: random(), o: 0, l: 0, fl: 0, if_c: 0 }));
  return { ...template, name: undefined, id: undefined, version: undefined, width: 200, height: 200, blocks };
}

const api = await startBenchApi({ NODE_OPTIONS: `--import=${probe}`, TMPDIR: work });
try {
  const { id, token } = await benchUser(api.base, 'backupbench');
  const platform = new DatabaseSync(join(api.dataDir, 'canopy.db'));
  platform.exec(`UPDATE users SET storage_limit_mb = 1000000, available_slot = 1 WHERE id = '${id}'`);
  const server = `/users/${id}/server`;
  if ((await call(api.base, token, 'POST', server, { serverName: 'BackupBench' })).status !== 201)
    throw new Error('could not create the server');
  const serverId = (platform.prepare('SELECT id FROM servers').get() as { id: string }).id;
  platform.close();
  const engineDb = join(api.dataDir, 'servers', serverId, 'engine.db');
  await call(api.base, token, 'POST', `${server}/BackupBench/start`);
  const online = async () =>
    (await (await fetch(`${api.base}/status`)).json()).hostedServers.find(
      (s: { name: string }) => s.name === 'BackupBench',
    )?.status === 'ONLINE';
  const waitOnline = async () => {
    for (let i = 0; i < 600 && !(await online()); i++) await sleep(50);
  };
  await waitOnline();

  // Fill the database to about TARGET_MB with incompressible worlds, several writers at once.
  const template = (await call(api.base, token, 'GET', `${server}/worlds/START`)).body;
  const filling = performance.now();
  let n = 0;
  const size = () => statSync(engineDb).size + (statSync(`${engineDb}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (size() < TARGET_MB * 1e6) {
        const res = await call(api.base, token, 'PUT', `${server}/worlds/FILL${n++}`, noisyWorld(template));
        if (res.status !== 200) throw new Error(`fill: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
  console.log(`engine database: ${(size() / 1e6).toFixed(0)} MB (${n} worlds in ${ms(performance.now() - filling)})`);

  // 10 clients save a small world in a loop while the backup is made.
  const small = { ...template, name: undefined, id: undefined, version: undefined };
  let writing = true;
  const latencies: number[] = [];
  let refused = 0;
  // The api queues a server's world saves (one at a time, four waiting): a writer refused with 429 tries again.
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    while (writing) {
      const started = performance.now();
      const res = await call(api.base, token, 'PUT', `${server}/worlds/W${w}`, small);
      if (res.status === 429) {
        refused++;
        await sleep(10);
        continue;
      }
      if (res.status !== 200) throw new Error(`write: ${res.status} ${JSON.stringify(res.body)}`);
      latencies.push(performance.now() - started);
    }
  });
  const writersDone = Promise.all(writers).then(
    () => null,
    (error: Error) => {
      writing = false;
      return error;
    },
  );
  await sleep(500);
  const [enginePid] = enginePids(api.dataDir);
  if (!enginePid) throw new Error('no engine');
  // The same writers without a backup, for comparison: what the engine's loop does under the writes alone.
  await loopFigures(enginePid);
  const quiet = latencies.length;
  await sleep(1500);
  const baselineStall = await loopFigures(enginePid);
  const quietP99 = percentile(latencies.slice(quiet), 99);
  const baseline = latencies.length;
  const refusedBefore = refused;
  const creating = performance.now();
  const created = await call(api.base, token, 'POST', `${server}/backup`);
  const createMs = performance.now() - creating;
  const stall = await loopFigures(enginePid);
  const during = latencies.slice(baseline);
  const refusedDuring = refused - refusedBefore;
  writing = false;
  const failed = await writersDone;
  if (failed) throw failed;
  if (created.status !== 200) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const backupBytes = (await call(api.base, token, 'GET', `${server}/backup`)).body.bytes as number;

  const restoring = performance.now();
  const restored = await call(api.base, token, 'POST', `${server}/backup/restore`);
  const restoreMs = performance.now() - restoring;
  if (restored.status !== 200) throw new Error(`restore: ${restored.status} ${JSON.stringify(restored.body)}`);

  const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER GOAL');
  console.log(`backup: ${(backupBytes / 1e6).toFixed(0)} MB`);
  console.log(
    `without a backup (1.5 s of the same writes): engine stall ${baselineStall.max.toFixed(1)} ms, write p99 ${ms(quietP99)}`,
  );
  console.log(
    `create (online, ${WRITERS} writers):       ${ms(createMs).padStart(8)}  goal < 2000 ms  ${verdict(createMs < 2000)}`,
  );
  console.log(
    `engine event-loop stall during create: ${`${stall.max.toFixed(1)} ms`.padStart(8)}  goal < 50 ms    ${verdict(stall.max < 50)}`,
  );
  console.log(
    `world write p99 during create:         ${ms(percentile(during, 99)).padStart(8)}  (${during.length} writes, max ${ms(Math.max(...during))}, ${refusedDuring} queue-full 429s retried)`,
  );
  console.log(
    `restore (stop + verify + swap):        ${ms(restoreMs).padStart(8)}  goal < 2000 ms  ${verdict(restoreMs < 2000)}`,
  );
} finally {
  await api.stop();
  rmSync(work, { recursive: true, force: true });
}
