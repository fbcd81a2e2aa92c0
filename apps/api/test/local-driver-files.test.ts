import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { LocalDriver } from '../src/runtime/local/local-driver.ts';
import { pidAlive } from '../src/runtime/local/pids.ts';
import { engineEntry, recordingDriver, specsFrom } from './support/local-engines.ts';
import { until } from './support/until.ts';

// The local driver's files(spec) on real engines (docs/engine-files-api.md, ADR 0041): an offline server's file
// calls go to a files-only engine started for them, which goes after an idle while, is stopped before the real
// engine starts, and is never adopted as the game by a driver that finds it after an api restart.

const root = mkdtempSync(join(tmpdir(), 'canopy-files-driver-'));
const spec = specsFrom(30000 + (process.pid % 500) * 20 + 10);
const timeouts = { startMs: 15000, stopMs: 5000, killMs: 2000 };

const stateFile = (id: string) => JSON.parse(readFileSync(join(root, id, 'engine.json'), 'utf8'));

describe('local driver: files through a files-only engine', () => {
  const drivers: LocalDriver[] = [];
  const driver = (filesIdleMs = 60_000) => {
    const r = recordingDriver({ root, engineEntry, timeouts, filesIdleMs });
    drivers.push(r.d);
    return r;
  };
  after(async () => {
    for (const d of drivers) await d.shutdown({ stopServers: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('writes and reads an offline server through a files-only engine, which goes after an idle while', async () => {
    const { d } = driver(200);
    const s = spec('idle');
    const files = d.files(s);
    assert.equal(await files.read('creators.json'), undefined);
    assert.equal(await files.write('creators.json', Buffer.from('["Ann"]\n')), 8);
    const pid = d.filesOnlyPid(s.id);
    assert.ok(pid, 'a files-only engine answers');
    assert.equal(stateFile(s.id).filesOnly, true, 'its engine.json says what it is');
    assert.equal((await files.read('creators.json'))?.toString(), '["Ann"]\n');
    assert.equal(d.state(s.id).status, 'OFFLINE', 'the server itself stays offline');
    await until(() => d.filesOnlyPid(s.id) === null && !pidAlive(pid), 'the idle files-only engine to stop');
    // The next call starts another one.
    assert.equal((await files.read('creators.json'))?.toString(), '["Ann"]\n');
    assert.notEqual(d.filesOnlyPid(s.id), null);
  });

  it('stops the files-only engine before the server starts, then answers through the running engine', async () => {
    const { d } = driver();
    const s = spec('starts');
    const files = d.files(s);
    await files.write('server-config.json', Buffer.from('{"autofarmDelay":250}\n'));
    const pid = d.filesOnlyPid(s.id);
    assert.ok(pid);
    await d.start(s);
    assert.equal(d.state(s.id).status, 'ONLINE');
    assert.equal(pidAlive(pid), false, 'the files-only engine was stopped first');
    assert.equal(d.filesOnlyPid(s.id), null);
    assert.notEqual(stateFile(s.id).filesOnly, true, 'the game engine holds the data directory');
    assert.equal((await files.read('server-config.json'))?.toString(), '{"autofarmDelay":250}\n');
    assert.equal(d.filesOnlyPid(s.id), null, 'an online server is read through its own engine');
    const usage = await files.usage();
    assert.ok(usage.databaseBytes > 0 && usage.bytes >= usage.databaseBytes, JSON.stringify(usage));
    await d.stop(s.id);
    // Offline again: the files-only engine may come back.
    assert.equal((await files.read('server-config.json'))?.toString(), '{"autofarmDelay":250}\n');
    assert.notEqual(d.filesOnlyPid(s.id), null);
  });

  it('refuses file calls while the real engine starts, and after remove() began', async () => {
    const { d } = driver();
    const s = spec('busy');
    const starting = d.start(s);
    await assert.rejects(d.files(s).read('creators.json'), { status: 409, code: 'server_busy' });
    await starting;
    await d.stop(s.id);
    await d.files(s).write('creators.json', Buffer.from('[]'));
    await d.remove(s);
    assert.equal(d.filesOnlyPid(s.id), null);
    await assert.rejects(d.files(s).read('creators.json'), { status: 409 });
  });

  it('a driver started after an api restart stops a files-only engine it finds instead of adopting it', async () => {
    const first = driver();
    const s = spec('restart');
    await first.d.files(s).write('creators.json', Buffer.from('["Bo"]'));
    const stray = first.d.filesOnlyPid(s.id);
    assert.ok(stray);
    // The first api dies without a shutdown: its files-only engine (own process group) outlives it.
    const second = driver();
    await second.d.reconcile([s], () => true);
    assert.equal(second.d.state(s.id).status, 'ONLINE');
    assert.equal(pidAlive(stray), false, 'the stray files-only engine was stopped');
    assert.notEqual(stateFile(s.id).filesOnly, true);
    assert.ok(stateFile(s.id).gamePort > 0, 'a real game engine runs');
    assert.equal((await second.d.files(s).read('creators.json'))?.toString(), '["Bo"]');
    await second.d.stop(s.id);
  });
});
