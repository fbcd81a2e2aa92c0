import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { LocalDriver } from '../src/runtime/local/local-driver.ts';
import { RuntimeBusyError } from '../src/runtime/types.ts';
import { engineEntry, enginePidIn, recordingDriver, specsFrom } from './support/local-engines.ts';
import { until } from './support/until.ts';

const hungEntry = new URL('./fixtures/hung-engine.ts', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'canopy-supervisor-'));

/** A driver on real engine processes that records what it reports. */
function driver(entry = engineEntry, timeouts = { startMs: 15000, stopMs: 5000, killMs: 2000 }) {
  return recordingDriver({ root, engineEntry: entry, timeouts });
}

const spec = specsFrom(30000 + (process.pid % 500) * 20);

const enginePid = (id: string) => enginePidIn(root, id);

describe('local driver with real engine processes', () => {
  const drivers: LocalDriver[] = [];
  after(async () => {
    for (const d of drivers) await d.shutdown({ stopServers: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('starts to ready, then stops gracefully', async () => {
    const { d, statuses } = driver();
    drivers.push(d);
    const s = spec('graceful');
    await d.start(s);
    assert.equal(d.state(s.id).status, 'ONLINE');
    assert.ok(d.consoleHistory(s.id).some((l) => l.includes('[INFO] READY')));
    await d.stop(s.id);
    assert.deepEqual(statuses, ['STARTING', 'ONLINE', 'STOPPING', 'OFFLINE']);
    assert.ok(d.consoleHistory(s.id).length > 1);
  });

  it('refuses a second power action while one runs', async () => {
    const { d } = driver();
    drivers.push(d);
    const s = spec('concurrent');
    const first = d.start(s);
    assert.throws(() => d.start(s), RuntimeBusyError);
    assert.throws(() => d.stop(s.id), RuntimeBusyError);
    assert.equal(d.isBusy(s.id), true);
    await first;
    assert.equal(d.isBusy(s.id), false);
    await d.stop(s.id);
  });

  it('refuses to start a server while it is being deleted, and afterwards', async () => {
    const { d } = driver();
    drivers.push(d);
    const s = spec('doomed');
    await d.start(s);
    const removing = d.remove(s);
    assert.equal(d.isBusy(s.id), true);
    assert.throws(() => d.start(s), RuntimeBusyError);
    await removing;
    assert.throws(() => d.start(s), RuntimeBusyError, 'a deleted server never comes back');
  });

  it('escalates to SIGKILL when an engine ignores stop and SIGTERM', async () => {
    const { d, statuses } = driver(hungEntry, { startMs: 10000, stopMs: 300, killMs: 300 });
    drivers.push(d);
    const s = spec('hung');
    await d.start(s);
    await d.stop(s.id);
    assert.equal(d.state(s.id).status, 'OFFLINE');
    assert.deepEqual(statuses.slice(-2), ['STOPPING', 'OFFLINE']);
    assert.ok(
      d.consoleHistory(s.id).some((l) => l.includes('ignoring SIGTERM')),
      'SIGTERM came before SIGKILL',
    );
  });

  it('restarts a crashed engine once, and keeps it down when it crashes again within a minute', async () => {
    const { d, crashes } = driver();
    drivers.push(d);
    const s = spec('crashy');
    await d.start(s);
    const firstPid = enginePid(s.id);
    process.kill(firstPid, 'SIGKILL');
    await until(() => crashes.length === 1, 'the crash report');
    assert.equal(crashes[0]?.signal, 'SIGKILL');
    assert.equal(crashes[0]?.restarting, true);
    await until(() => d.state(s.id).status === 'ONLINE', 'the automatic restart');
    const secondPid = enginePid(s.id);
    assert.notEqual(secondPid, firstPid);

    process.kill(secondPid, 'SIGKILL');
    await until(() => crashes.length === 2, 'the second crash report');
    assert.equal(crashes[1]?.restarting, false);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(d.state(s.id).status, 'OFFLINE', 'the loop guard kept it down');
  });

  it('reports a start that never becomes ready as failed and leaves no process', async () => {
    const { d, failures } = driver(join(root, 'no-such-engine.ts'), { startMs: 3000, stopMs: 500, killMs: 500 });
    drivers.push(d);
    const s = spec('broken');
    await assert.rejects(d.start(s));
    assert.equal(d.state(s.id).status, 'OFFLINE');
    assert.equal(failures.length, 1);
  });

  it('re-attaches to running engines after an api restart, without a second process', async () => {
    const first = driver();
    const s = spec('survivor');
    await first.d.start(s);
    const pid = enginePid(s.id);
    await first.d.shutdown({ stopServers: false });
    process.kill(pid, 0); // still running

    const second = driver();
    drivers.push(second.d);
    await second.d.reconcile([s], () => true);
    assert.equal(second.d.state(s.id).status, 'ONLINE');
    assert.equal(enginePid(s.id), pid, 'the same engine, adopted');
    await until(
      () => second.d.consoleHistory(s.id).some((l) => l.includes('READY')),
      'history replayed from the engine',
    );
    await second.d.sendCommand(s.id, 'say hello after restart');
    await until(() => second.d.consoleHistory(s.id).some((l) => l.includes('hello after restart')), 'the command echo');

    // An adopted engine's crash is noticed too.
    process.kill(pid, 'SIGKILL');
    await until(() => second.crashes.length === 1, 'crash of the adopted engine');
    await until(() => second.d.state(s.id).status === 'ONLINE', 'restart after the crash');
    await second.d.stop(s.id);
  });

  it('holds power actions while it re-attaches, then adopts the engine that kept running', async () => {
    const first = driver();
    const s = spec('reattach-lock');
    await first.d.start(s);
    const pid = enginePid(s.id);
    await first.d.shutdown({ stopServers: false });

    const second = driver();
    drivers.push(second.d);
    const reconciling = second.d.reconcile([s], () => true);
    // Before the engine has answered, the server's state is unknown: no action may decide on it.
    assert.equal(second.d.isBusy(s.id), true);
    assert.throws(() => second.d.start(s), RuntimeBusyError);
    assert.equal(second.d.state(s.id).status, 'UNKNOWN', 'not OFFLINE: the engine may well be running');
    await second.d.settled(s.id);
    assert.equal(second.d.state(s.id).status, 'ONLINE');
    assert.equal(enginePid(s.id), pid, 'adopted, not started twice');
    await reconciling;
    await second.d.stop(s.id);
    assert.throws(() => process.kill(pid, 0), 'the adopted engine was stopped');
  });

  it('adopts a running engine it lost track of on start, and can stop it', async () => {
    const first = driver();
    const s = spec('ghost');
    await first.d.start(s);
    const pid = enginePid(s.id);
    await first.d.shutdown({ stopServers: false });

    // A driver that never re-attached (as when the api answered before it could): start must not
    // spawn a second engine, which the data directory lock would refuse, but take the live one over.
    const second = driver();
    drivers.push(second.d);
    await second.d.start(s);
    assert.equal(second.d.state(s.id).status, 'ONLINE');
    assert.equal(enginePid(s.id), pid);
    assert.equal(second.failures.length, 0, 'no failed start was reported');
    await second.d.stop(s.id);
    assert.equal(second.d.state(s.id).status, 'OFFLINE');
    assert.throws(() => process.kill(pid, 0), 'stop reached the adopted engine');
  });

  it('restarts an engine it lost track of instead of leaving it running beside a new one', async () => {
    const first = driver();
    const s = spec('ghost-restart');
    await first.d.start(s);
    const pid = enginePid(s.id);
    await first.d.shutdown({ stopServers: false });

    const second = driver();
    drivers.push(second.d);
    await second.d.restart(s);
    assert.equal(second.d.state(s.id).status, 'ONLINE');
    const restarted = enginePid(s.id);
    assert.notEqual(restarted, pid, 'a new engine runs');
    assert.throws(() => process.kill(pid, 0), 'the old engine is gone');
    await second.d.stop(s.id);
  });

  it('starts servers that should run and stops adopted ones that should not', async () => {
    const first = driver();
    const keep = spec('should-stop');
    await first.d.start(keep);
    const pid = enginePid(keep.id);
    await first.d.shutdown({ stopServers: false });

    const second = driver();
    drivers.push(second.d);
    const fresh = spec('should-start');
    await second.d.reconcile([keep, fresh], (id) => id === fresh.id);
    assert.equal(second.d.state(fresh.id).status, 'ONLINE');
    assert.equal(second.d.state(keep.id).status, 'OFFLINE');
    assert.throws(() => process.kill(pid, 0), 'the unwanted engine was stopped');
    await second.d.stop(fresh.id);
  });
});
