import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GameServer } from '../src/runtime/kubernetes/agones.ts';
import { type CrashHost, CrashWatch } from '../src/runtime/kubernetes/crash.ts';
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
