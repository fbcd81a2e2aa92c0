import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LocalDriver } from '../src/runtime/local/local-driver.ts';
import type { RuntimeState } from '../src/runtime/types.ts';

const entry = new URL('./fixtures/players-engine.ts', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'canopy-players-'));

async function until(check: () => boolean, what: string, ms = 10000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('player counts from the engine', () => {
  const states: RuntimeState[] = [];
  const d = new LocalDriver({
    root,
    engineEntry: entry,
    timeouts: { startMs: 15000, stopMs: 5000, killMs: 2000 },
    now: Date.now,
    saveLastCrash: () => {},
    listener: { status: (_id, s) => states.push(s), console: () => {}, crash: () => {}, startFailed: () => {} },
  });
  const spec = {
    id: 'p',
    name: 'p',
    ownerId: 'o',
    gamePort: 0,
    secret: 'secret-players-0123456789',
    lastCrashAt: null,
  };
  after(async () => {
    await d.shutdown({ stopServers: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('asks once when the engine comes up, then follows its players lines', async () => {
    await d.start(spec);
    await until(() => d.state('p').players === 2, 'the count read at start');
    await d.sendCommand('p', 'players 7');
    await until(() => d.state('p').players === 7, 'the announced count');
    assert.deepEqual(states.at(-1), { status: 'ONLINE', players: 7, version: 'fixture' });
    await d.sendCommand('p', 'players 0');
    await until(() => d.state('p').players === 0, 'everyone left');
    // A count on a console line that is not the engine's players line changes nothing.
    await d.sendCommand('p', 'say Players online: 99');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(d.state('p').players, 0);
  });
});
