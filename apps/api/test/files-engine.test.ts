import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControlClient } from '../src/runtime/control-client.ts';
import type { EngineProcess } from '../src/runtime/local/engine-process.ts';
import { FilesEngine } from '../src/runtime/local/files-engine.ts';
import { RuntimeBusyError } from '../src/runtime/types.ts';
import { until } from './support/until.ts';

// The files-only engine's bookkeeping (runtime/local/files-engine.ts) on stand-in processes: calls in flight,
// the hold a start puts on it, the idle stop. The real engines are in local-driver-files.test.ts.

/** A stand-in engine process that is ready at once and exits when asked to stop. */
function standIn(pid: number) {
  let exited: () => void = () => {};
  const exit = new Promise<{ code: number; signal: null }>((resolve) => {
    exited = () => resolve({ code: 0, signal: null });
  });
  const engine = {
    pid,
    running: true,
    stops: 0,
    control: { request: async () => ({}) } as unknown as ControlClient,
    waitReady: async () => {},
    waitExit: () => exit,
    signal: () => {},
    async stop() {
      engine.stops++;
      engine.running = false;
      exited();
      return exit;
    },
  };
  return engine;
}

function filesEngine(idleMs = 60_000) {
  const spawned: ReturnType<typeof standIn>[] = [];
  const files = new FilesEngine({
    spawn: async () => {
      const engine = standIn(1000 + spawned.length);
      spawned.push(engine);
      return engine as unknown as EngineProcess;
    },
    idleMs,
    timeouts: { startMs: 1000, stopMs: 1000, killMs: 1000 },
  });
  return { files, spawned };
}

describe('files-only engine bookkeeping', () => {
  it('shares one engine between calls, and a hold waits for the calls in flight before it stops it', async () => {
    const { files, spawned } = filesEngine();
    const [a, b] = await Promise.all([files.acquire(), files.acquire()]);
    assert.equal(spawned.length, 1, 'one engine for both calls');
    assert.equal(a.control, b.control);
    let held = false;
    const hold = files.hold().then(() => {
      held = true;
    });
    await assert.rejects(files.acquire(), RuntimeBusyError, 'no new call while held');
    a.release();
    a.release(); // twice is once
    await new Promise((r) => setImmediate(r));
    assert.equal(held, false, 'one call is still in flight');
    assert.equal(spawned[0]?.stops, 0);
    b.release();
    await hold;
    assert.equal(spawned[0]?.stops, 1, 'stopped once the calls were over');
    assert.equal(files.pid, null);

    files.release();
    const c = await files.acquire();
    assert.equal(spawned.length, 2, 'a new engine once the hold is released');
    c.release();
    await files.close();
    assert.equal(spawned[1]?.stops, 1);
    await assert.rejects(files.acquire(), RuntimeBusyError, 'closed for good');
    files.release();
    await assert.rejects(files.acquire(), RuntimeBusyError, 'a release does not reopen a closed one');
  });

  it('stops an idle engine after its idle time, and starts another for the next call', async () => {
    const { files, spawned } = filesEngine(50);
    (await files.acquire()).release();
    assert.equal(files.pid, 1000);
    await until(() => spawned[0]?.stops === 1, 'the idle stop');
    assert.equal(files.pid, null);
    const next = await files.acquire();
    assert.equal(files.pid, 1001);
    next.release();
    await files.close();
  });

  it('a failed start releases its call and lets the next one try again', async () => {
    let fail = true;
    const files = new FilesEngine({
      spawn: async () => {
        if (fail) throw new Error('engine process could not be started');
        return standIn(7) as unknown as EngineProcess;
      },
      idleMs: 60_000,
      timeouts: { startMs: 1000, stopMs: 1000, killMs: 1000 },
    });
    await assert.rejects(files.acquire(), /could not be started/);
    await files.hold(); // nothing in flight: returns at once
    files.release();
    fail = false;
    (await files.acquire()).release();
    assert.equal(files.pid, 7);
    await files.close();
  });
});
