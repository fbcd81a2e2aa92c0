import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectNames } from '../src/runtime/kubernetes/names.ts';
import { addServer, clusterPerSuite, kubectl, replica, startServer } from './support/k8s-driver.ts';
import { until } from './support/until.ts';

// Crash detection and the crash-loop guard of the kubernetes driver: every replica sees the GameServer turn
// Unhealthy, the scheduler's leader alone reports the crash and makes it again, unless it crashed within a minute.

describe('kubernetes driver: crashes', () => {
  const suite = clusterPerSuite();

  const podUid = (id: string) => suite.cluster.stand.objects.get('pods', objectNames(id).gameServer)?.metadata.uid;

  it('restarts a killed engine once (on the leader), and leaves it down when it crashes again within a minute', async () => {
    const spec = await addServer(suite.cluster.db);
    const leader = await replica(suite.cluster, [spec], { leader: () => true });
    const follower = await replica(suite.cluster, [spec], { leader: () => false });
    suite.drivers.push(leader, follower);
    await startServer(leader.d, suite.cluster.db, spec);
    const first = podUid(spec.id);

    suite.cluster.stand.killProcess(objectNames(spec.id).gameServer);
    await until(() => leader.crashes.length === 1, 'the crash report');
    assert.equal(leader.crashes[0]?.report.restarting, true);
    assert.equal(leader.crashes[0]?.report.signal, 'SIGKILL');
    await until(() => !leader.d.isBusy(spec.id) && leader.d.state(spec.id).status === 'ONLINE', 'the restart');
    assert.ok(podUid(spec.id) !== first, 'a new engine runs');
    await until(() => follower.d.state(spec.id).status === 'ONLINE', 'the follower to see it back');
    assert.equal(follower.crashes.length, 0, 'a follower only updates its view');
    const stored = await suite.cluster.db.get<{ at: number }>('SELECT last_crash_at AS at FROM servers WHERE id = ?', [
      spec.id,
    ]);
    assert.ok(stored?.at, 'the crash time is kept for the guard');

    suite.cluster.stand.killProcess(objectNames(spec.id).gameServer);
    await until(() => leader.crashes.length === 2, 'the second crash report');
    assert.equal(leader.crashes[1]?.report.restarting, false, 'crashed again within a minute');
    await until(() => !leader.d.isBusy(spec.id), 'the leader to finish with it');
    assert.equal(leader.d.state(spec.id).status, 'OFFLINE');
    assert.equal(
      suite.cluster.stand.objects.get('gameservers', objectNames(spec.id).gameServer),
      undefined,
      'kept down',
    );
    await until(() => follower.d.state(spec.id).status === 'OFFLINE', 'the follower to see it down');
    assert.equal(follower.crashes.length, 0);
  });

  it('starts a server again whose GameServer vanished while it should run', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec], { actionGraceMs: 0 });
    suite.drivers.push(r);
    await startServer(r.d, suite.cluster.db, spec);
    const first = podUid(spec.id);
    // Someone deletes it behind the api's back (kubectl delete gs, a node drained).
    await kubectl(suite.cluster).deleteGameServer(objectNames(spec.id).gameServer);
    await until(() => r.crashes.length === 1, 'the vanished GameServer counted as a crash');
    await until(() => !r.d.isBusy(spec.id) && r.d.state(spec.id).status === 'ONLINE', 'the restart');
    assert.ok(podUid(spec.id) !== first);
    await r.d.stop(spec.id);
  });
});
