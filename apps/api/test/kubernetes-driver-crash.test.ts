import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { objectNames } from '../src/runtime/kubernetes/names.ts';
import { addServer, type Cluster, kubectl, replica, startCluster, startServer } from './support/k8s-driver.ts';
import { until } from './support/until.ts';

// Crash detection and the crash-loop guard of the kubernetes driver: every replica sees the GameServer turn
// Unhealthy, the scheduler's leader alone reports the crash and makes it again, unless it crashed within a minute.

describe('kubernetes driver: crashes', () => {
  let cluster: Cluster;
  const drivers: Array<{ d: { shutdown(o: { stopServers: boolean }): Promise<void> } }> = [];
  before(async () => {
    cluster = await startCluster();
  });
  after(async () => {
    for (const r of drivers) await r.d.shutdown({ stopServers: true }).catch(() => {});
    await cluster?.close();
  });

  const podUid = (id: string) => cluster.stand.objects.get('pods', objectNames(id).gameServer)?.metadata.uid;

  it('restarts a killed engine once (on the leader), and leaves it down when it crashes again within a minute', async () => {
    const spec = await addServer(cluster.db);
    const leader = await replica(cluster, [spec], { leader: () => true });
    const follower = await replica(cluster, [spec], { leader: () => false });
    drivers.push(leader, follower);
    await startServer(leader.d, cluster.db, spec);
    const first = podUid(spec.id);

    cluster.stand.killProcess(objectNames(spec.id).gameServer);
    await until(() => leader.crashes.length === 1, 'the crash report');
    assert.equal(leader.crashes[0]?.report.restarting, true);
    assert.equal(leader.crashes[0]?.report.signal, 'SIGKILL');
    await until(() => !leader.d.isBusy(spec.id) && leader.d.state(spec.id).status === 'ONLINE', 'the restart');
    assert.ok(podUid(spec.id) !== first, 'a new engine runs');
    await until(() => follower.d.state(spec.id).status === 'ONLINE', 'the follower to see it back');
    assert.equal(follower.crashes.length, 0, 'a follower only updates its view');
    const stored = await cluster.db.get<{ at: number }>('SELECT last_crash_at AS at FROM servers WHERE id = ?', [
      spec.id,
    ]);
    assert.ok(stored?.at, 'the crash time is kept for the guard');

    cluster.stand.killProcess(objectNames(spec.id).gameServer);
    await until(() => leader.crashes.length === 2, 'the second crash report');
    assert.equal(leader.crashes[1]?.report.restarting, false, 'crashed again within a minute');
    await until(() => !leader.d.isBusy(spec.id), 'the leader to finish with it');
    assert.equal(leader.d.state(spec.id).status, 'OFFLINE');
    assert.equal(cluster.stand.objects.get('gameservers', objectNames(spec.id).gameServer), undefined, 'kept down');
    await until(() => follower.d.state(spec.id).status === 'OFFLINE', 'the follower to see it down');
    assert.equal(follower.crashes.length, 0);
  });

  it('starts a server again whose GameServer vanished while it should run', async () => {
    const spec = await addServer(cluster.db);
    const r = await replica(cluster, [spec], { actionGraceMs: 0 });
    drivers.push(r);
    await startServer(r.d, cluster.db, spec);
    const first = podUid(spec.id);
    // Someone deletes it behind the api's back (kubectl delete gs, a node drained).
    await kubectl(cluster).deleteGameServer(objectNames(spec.id).gameServer);
    await until(() => r.crashes.length === 1, 'the vanished GameServer counted as a crash');
    await until(() => !r.d.isBusy(spec.id) && r.d.state(spec.id).status === 'ONLINE', 'the restart');
    assert.ok(podUid(spec.id) !== first);
    await r.d.stop(spec.id);
  });
});
