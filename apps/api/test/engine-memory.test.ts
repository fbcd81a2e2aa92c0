import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { LocalDriver } from '../src/runtime/local/local-driver.ts';
import { heapLimitMB, MemoryCeiling, OVER_SAMPLES, privateMemoryBytes } from '../src/runtime/local/memory.ts';
import { ownerWithServer } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { engineEntry, enginePidIn, recordingDriver, specsFrom } from './support/local-engines.ts';
import { sql, waitForStatus } from './support/servers.ts';
import { until as waitUntil } from './support/until.ts';

// Issue 21 item 2: one hostile world write took an engine from 75 MB to 1.15 GB for good. Every engine now has a
// ceiling by its owner's plan: V8's heap limit at start, and the driver restarts an engine that stays over it.

const MB = 1024 * 1024;

/** The Node flags a process runs with. */
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');

/** This file waits up to 30 s: a memory restart takes samples, a graceful stop and a new engine. */
const until = (check: () => boolean, what: string) => waitUntil(check, what, 30_000);

describe('memory ceiling: the parts', () => {
  it('an engine is restarted only after it stayed over its ceiling, not for a passing peak', () => {
    const ceiling = new MemoryCeiling(100);
    assert.equal(OVER_SAMPLES, 2);
    assert.equal(ceiling.exceededBy(101 * MB), false, 'one sample over');
    assert.equal(ceiling.exceededBy(99 * MB), false, 'back under: the count starts again');
    assert.equal(ceiling.exceededBy(101 * MB), false);
    assert.equal(ceiling.exceededBy(100 * MB), false, 'at the ceiling is not over it');
    assert.equal(ceiling.exceededBy(150 * MB), false);
    assert.equal(ceiling.exceededBy(150 * MB), true, 'two samples in a row over');
  });

  it('the heap gets three quarters of the ceiling, at least 16 MB', () => {
    assert.equal(heapLimitMB(256), 192);
    assert.equal(heapLimitMB(512), 384);
    assert.equal(heapLimitMB(64), 48);
    assert.equal(heapLimitMB(1), 16);
  });

  it("reads a process's own memory, not the binary's shared pages", () => {
    const own = privateMemoryBytes(process.pid);
    assert.ok(own !== null && own > 0 && own <= process.memoryUsage().rss, String(own));
    assert.equal(privateMemoryBytes(2 ** 22 + 12345), null, 'no such process');
  });
});

describe('memory ceiling with real engine processes', () => {
  const root = mkdtempSync(join(tmpdir(), 'canopy-memory-'));
  const drivers: LocalDriver[] = [];
  after(async () => {
    for (const d of drivers) await d.shutdown({ stopServers: true });
    rmSync(root, { recursive: true, force: true });
  });

  /** A driver whose engines have a ceiling of `limitMB`, with the benchmark commands (`hog`), sampling often. */
  function driver(limitMB: number) {
    const { d, crashes, lines } = recordingDriver({
      root,
      engineEntry,
      benchCommands: true,
      timeouts: { startMs: 15000, stopMs: 5000, killMs: 2000 },
      memoryLimitMB: async () => limitMB,
      memorySampleMs: 100,
    });
    drivers.push(d);
    return { d, crashes, lines };
  }

  const spec = specsFrom(31000 + (process.pid % 500) * 20);
  const enginePid = (id: string) => enginePidIn(root, id);

  it('starts each engine with the heap limit of its ceiling', async () => {
    const { d } = driver(128);
    const s = spec('heap-flag');
    await d.start(s);
    assert.ok(commandLine(enginePid(s.id)).includes('--max-old-space-size=96'), commandLine(enginePid(s.id)).join(' '));
    assert.ok(commandLine(enginePid(s.id)).includes('--max-semi-space-size=1'), 'the small young generation stays');
    await d.stop(s.id);
  });

  it('restarts an engine that stays over its ceiling, then keeps it down when it does so again within a minute', async () => {
    const { d, crashes, lines } = driver(96);
    const s = spec('native-hog');
    await d.start(s);
    const first = enginePid(s.id);
    await d.sendCommand(s.id, 'hog 120 native');
    await until(() => crashes.length === 1, 'the restart for memory');
    assert.equal(crashes[0]?.restarting, true);
    assert.equal(crashes[0]?.memory?.limitMB, 96);
    assert.ok((crashes[0]?.memory?.usedMB ?? 0) > 96, JSON.stringify(crashes[0]?.memory));
    await until(() => d.state(s.id).status === 'ONLINE', 'the engine back');
    assert.notEqual(enginePid(s.id), first, 'a new engine');
    assert.throws(() => process.kill(first, 0), 'the old one is gone');
    assert.ok(
      lines.some((l) =>
        /\[WARN\] The server was restarted because it used more than 96 MB of memory \(\d+ MB\)\.$/.test(l),
      ),
      'the console says why',
    );

    // Again within a minute: the crash-loop guard counts it and leaves the server offline.
    const second = enginePid(s.id);
    await d.sendCommand(s.id, 'hog 120 native');
    await until(() => crashes.length === 2, 'the second stop for memory');
    assert.equal(crashes[1]?.restarting, false);
    await until(() => d.state(s.id).status === 'OFFLINE', 'the server left offline');
    assert.throws(() => process.kill(second, 0), 'the engine is gone');
    assert.ok(lines.some((l) => l.includes('used more than 96 MB of memory again within a minute')));
  });

  it('an engine whose JavaScript heap reaches the limit ends and is restarted, said as memory', async () => {
    const { d, crashes, lines } = driver(96);
    const s = spec('heap-hog');
    await d.start(s);
    const first = enginePid(s.id);
    await d.sendCommand(s.id, 'hog 200 heap');
    await until(() => crashes.length === 1, 'the crash at the heap limit');
    assert.equal(crashes[0]?.memory?.limitMB, 96, JSON.stringify(crashes[0]));
    assert.equal(crashes[0]?.restarting, true);
    assert.ok(crashes[0]?.lastLines.some((l) => l.includes('JavaScript heap out of memory')));
    await until(() => d.state(s.id).status === 'ONLINE', 'the engine back');
    assert.notEqual(enginePid(s.id), first);
    assert.ok(lines.some((l) => l.includes('The server was restarted because it used more than 96 MB of memory')));
    await d.stop(s.id);
  });
});

describeEachDatabase(
  'memory ceiling by plan',
  (api) => {
    it("starts a Free owner's engine with the Free ceiling, a Paid owner's with the Paid one, and logs a restart for memory", async () => {
      const name = `mem${process.pid % 10000}${api().dialect[0]}`;
      const owner = await ownerWithServer(api(), name);
      const token = owner.sessionToken;
      const path = `/users/${owner.user.id}/server/${name}`;
      const heapFlag = async () => {
        const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]);
        // The engine.json of the local driver's layout: which process runs the server.
        const dir = join(api().ctx.config.dataDir, 'servers', row?.id ?? '');
        const pid = JSON.parse(readFileSync(join(dir, 'engine.json'), 'utf8')).pid as number;
        return commandLine(pid).find((f) => f.startsWith('--max-old-space-size='));
      };
      assert.equal((await api().request('POST', `${path}/start`, { token })).status, 202);
      await waitForStatus(api(), name, 'ONLINE');
      assert.equal(await heapFlag(), `--max-old-space-size=${heapLimitMB(128)}`);

      await sql(api(), "UPDATE users SET account_type = 'Paid', paid_until = NULL WHERE id = ?", [owner.user.id]);
      assert.equal((await api().request('POST', `${path}/restart`, { token })).status, 202);
      await waitForStatus(api(), name, 'ONLINE');
      assert.equal(await heapFlag(), `--max-old-space-size=${heapLimitMB(256)}`);

      // Over the Paid ceiling (outside the heap, which the flag cannot stop): restarted, and the activity log says why.
      const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]);
      await api().ctx.servers.runtime.sendCommand(row?.id ?? '', 'hog 300 native');
      const entry = async () =>
        api().ctx.db.get<{ details: string }>(
          "SELECT details FROM activity_logs WHERE action = 'Server out of memory' AND details LIKE ?",
          [`${name} %`],
        );
      const deadline = Date.now() + 30_000;
      while (!(await entry()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.match(
        (await entry())?.details ?? '',
        new RegExp(`^${name} was restarted because it used more than 256 MB of memory \\(\\d+ MB\\)`),
      );
      await waitForStatus(api(), name, 'ONLINE');
      await api().request('POST', `${path}/stop`, { token });
      await waitForStatus(api(), name, 'OFFLINE');
    });
  },
  // Sampled every 5 s as in production: the restart comes 5-10 s after the engine went over.
  { CANOPY_ENGINE_MEMORY_FREE_MB: '128', CANOPY_ENGINE_MEMORY_PAID_MB: '256', CANOPY_BENCH_COMMANDS: 'true' },
);
