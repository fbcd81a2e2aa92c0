import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { GameServer } from '../src/runtime/kubernetes/agones.ts';
import { type CrashHost, CrashWatch } from '../src/runtime/kubernetes/crash.ts';
import { ENGINE_CONTAINER } from '../src/runtime/kubernetes/objects.ts';
import { exitOf } from '../src/runtime/kubernetes/state.ts';
import type { ViewChange } from '../src/runtime/kubernetes/watch.ts';

// Which GameServer events the leader takes for a crash (crash.ts), on a host that records what it is asked: the
// cluster and its engines are in kubernetes-driver-crash.test.ts.

function watch(leader = true) {
  const asked = { heldSince: 0, locked: 0 };
  const host = {
    isLeader: () => leader,
    busy: () => false,
    heldSince: async () => {
      asked.heldSince++;
      return true; // an action explains it: nothing further
    },
    spec: async () => ({ id: 's', name: 's', ownerId: 'o', gamePort: 0, secret: 'x'.repeat(16), lastCrashAt: null }),
    locked: async () => {
      asked.locked++;
    },
    now: Date.now,
  } as unknown as CrashHost;
  return { crashes: new CrashWatch(host), asked };
}

const gs = (uid: string, state: string, deleting = false): GameServer =>
  ({
    metadata: { uid, name: 'canopy-s', ...(deleting ? { deletionTimestamp: new Date() } : {}) },
    spec: { ports: [], template: {} },
    status: { state },
  }) as unknown as GameServer;

const change = (verb: ViewChange['verb'], object: GameServer): ViewChange => ({
  serverId: 's',
  kind: 'gameserver',
  verb,
  object,
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('kubernetes driver: what counts as a crash', () => {
  it('an engine that told Agones it shuts down, before anyone deleted it, stopped: no crash', async () => {
    const { crashes, asked } = watch();
    crashes.changed(change('update', gs('1', 'Ready')));
    crashes.changed(change('update', gs('1', 'Shutdown')));
    crashes.changed(change('delete', gs('1', 'Shutdown', true)));
    await settle();
    assert.deepEqual(asked, { heldSince: 0, locked: 0 });
  });

  it('a GameServer deleted from outside is checked against the power actions (a vanished one may be a crash)', async () => {
    const { crashes, asked } = watch();
    crashes.changed(change('update', gs('2', 'Ready')));
    crashes.changed(change('update', gs('2', 'Ready', true)));
    // The engine's own Shutdown comes after the deletion began: still someone else's doing.
    crashes.changed(change('update', gs('2', 'Shutdown', true)));
    crashes.changed(change('delete', gs('2', 'Shutdown', true)));
    await settle();
    assert.deepEqual(asked, { heldSince: 1, locked: 0 });
  });

  it('acts once on an Unhealthy GameServer however often it is seen, and only on the leader', async () => {
    const leader = watch();
    for (let i = 0; i < 3; i++) leader.crashes.changed(change('update', gs('3', 'Unhealthy')));
    await settle();
    assert.equal(leader.asked.locked, 1);
    // Its deletion by that handling is no second crash.
    leader.crashes.changed(change('delete', gs('3', 'Unhealthy', true)));
    await settle();
    assert.deepEqual(leader.asked, { heldSince: 0, locked: 1 });

    const follower = watch(false);
    follower.crashes.changed(change('update', gs('4', 'Unhealthy')));
    follower.crashes.changed(change('delete', gs('4', 'Unhealthy', true)));
    await settle();
    assert.deepEqual(follower.asked, { heldSince: 0, locked: 0 });
  });
});

describe('exitOf (how the engine container ended, as the pod reports it)', () => {
  const pod = (terminated: Record<string, unknown>) =>
    ({ status: { containerStatuses: [{ name: ENGINE_CONTAINER, state: { terminated } }] } }) as unknown as V1Pod;

  it('reads exit code 128 + n as signal n, as the local supervisor reports a signal', () => {
    assert.deepEqual(exitOf(pod({ exitCode: 137 })), { code: null, signal: 9, oom: false });
    assert.deepEqual(exitOf(pod({ exitCode: 1 })), { code: 1, signal: null, oom: false });
    assert.deepEqual(exitOf(pod({ exitCode: 143, signal: 15 })), { code: null, signal: 15, oom: false });
    assert.deepEqual(exitOf(pod({ exitCode: 137, reason: 'OOMKilled' })), { code: null, signal: 9, oom: true });
    assert.deepEqual(exitOf(undefined), { code: null, signal: null, oom: false });
  });
});
