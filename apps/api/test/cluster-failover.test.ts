// Replicas dying under the kubernetes runtime (issue 22): three api processes on one PostgreSQL and the Kubernetes +
// Agones stand-in (real engines as pods), as in cluster-replicas.test.ts. The scheduler's leader killed with SIGKILL:
// another replica leads within seconds and it alone handles an engine's crash afterwards. A replica killed with
// SIGKILL in the middle of a start it began: the cluster finishes what it was told, every replica shows the same,
// the dead replica's power lock expires, and another replica can then act on the server.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LEASE_TTL_MS } from '../src/runtime/kubernetes/lease.ts';
import { objectNames } from '../src/runtime/kubernetes/names.ts';
import { type ApiCluster, call, feedStatus, ownerOf, type Replica, startApiCluster } from './support/cluster.ts';
import { dialects } from './support/databases.ts';
import { until, untilValue } from './support/until.ts';

describe('api replicas with the kubernetes runtime, killed', { skip: !dialects.includes('postgres') }, () => {
  let cluster: ApiCluster;
  const living = () => cluster.replicas.filter((r) => r.alive());
  /** Resolves once every living replica's feed shows `status` for the server. */
  const allShow = (name: string, status: string, ms = 30_000) =>
    untilValue(
      async () => {
        const seen = await Promise.all(living().map((r) => feedStatus(r.url, name)));
        return seen.every((s) => s === status) ? true : undefined;
      },
      `every replica to show ${name} ${status}`,
      ms,
    );
  /** GameServers made so far (by any replica). */
  const gameServerCreates = () =>
    cluster.stand.requests.filter((r) => r.method === 'POST' && /\/gameservers(\?|$)/.test(r.path) && r.status === 201)
      .length;
  const crashEntries = async (name: string) =>
    (
      await cluster.db.query<{ details: string }>(
        "SELECT details FROM activity_logs WHERE action = 'Server crashed' AND details LIKE $1",
        [`${name} %`],
      )
    ).rows;

  before(async () => {
    cluster = await startApiCluster({ replicas: 3 });
  });
  after(async () => {
    await cluster?.close();
  });

  it('hands leadership on when the leader is killed; the new leader alone restarts a crashed engine, once', async () => {
    const name = `Crashy${process.pid % 10000}`;
    const [a, b] = cluster.replicas as [Replica, Replica];
    const owner = await ownerOf(cluster, b.url, name);
    const gsName = objectNames(owner.serverId).gameServer;
    assert.equal((await call(b.url, owner.token, 'POST', `/users/${owner.id}/server/${name}/start`)).status, 202);
    await allShow(name, 'ONLINE');

    const old = cluster.leader();
    assert.equal(old, a, 'the first replica took the lock at its start');
    await old.kill('SIGKILL');
    // PostgreSQL ends the dead replica's session, and its advisory lock with it; a follower retries every 200 ms.
    await until(() => living().some((r) => r.leads()), 'another replica to lead', 10_000);
    const leader = cluster.leader();
    const follower = living().find((r) => r !== leader) as Replica;

    const crashed = cluster.stand.objects.get('gameservers', gsName);
    const createsBefore = gameServerCreates();
    cluster.stand.killProcess(gsName, 'SIGKILL');
    const entries = await untilValue(async () => {
      const rows = await crashEntries(name);
      return rows.length > 0 ? rows : undefined;
    }, 'the crash in the activity log');
    // The kubelet reports exit code 128 + 9; the driver names the signal, as the local supervisor does.
    assert.match(entries[0]?.details ?? '', /exited unexpectedly \(signal SIGKILL\); restarting it/);
    await until(() => {
      const gs = cluster.stand.objects.get('gameservers', gsName);
      return gs?.metadata.uid !== crashed?.metadata.uid && gs?.status?.state === 'Ready';
    }, 'a new GameServer to be Ready');
    await allShow(name, 'ONLINE');
    assert.equal((await crashEntries(name)).length, 1, 'the crash was reported once');
    assert.equal(gameServerCreates() - createsBefore, 1, 'one GameServer was made again');
    assert.match(leader.proc.output(), new RegExp(`server ${name} crashed`), 'the leader handled it');
    assert.doesNotMatch(follower.proc.output(), new RegExp(`server ${name} crashed`), 'the follower did not');
    await call(leader.url, owner.token, 'POST', `/users/${owner.id}/server/${name}/stop`);
    await allShow(name, 'OFFLINE');
  });

  it('settles a start whose replica was killed midway: one status everywhere, the lock expires, another acts', async () => {
    const name = `Midway${process.pid % 10000}`;
    const [leader, doomed] = [cluster.leader(), living().find((r) => !r.leads()) as Replica];
    const owner = await ownerOf(cluster, doomed.url, name);
    const gsName = objectNames(owner.serverId).gameServer;
    assert.equal((await call(doomed.url, owner.token, 'POST', `/users/${owner.id}/server/${name}/start`)).status, 202);
    // Killed once its GameServer exists and before Agones calls it Ready: the engine is still booting.
    await until(() => cluster.stand.objects.get('gameservers', gsName) !== undefined, 'the GameServer', 30_000);
    const state = cluster.stand.objects.get('gameservers', gsName)?.status?.state;
    await doomed.kill('SIGKILL');
    assert.notEqual(state, 'Ready', 'the start was still under way when its replica died');
    const lock = await cluster.db.query<{ by: string | null; until: string | null }>(
      'SELECT power_lock_by AS by, power_lock_until AS until FROM servers WHERE id = $1',
      [owner.serverId],
    );
    assert.match(lock.rows[0]?.by ?? '', /:start$/, 'the dead replica still holds the power lock');

    // Agones carries on with the GameServer it was given; the living replicas see it come up, and agree.
    await allShow(name, 'ONLINE');
    assert.equal(cluster.stand.objects.get('gameservers', gsName)?.status?.state, 'Ready');
    // The row a gateway run apart reads follows: each replica writes its changes in order, after showing them.
    const row = await untilValue(async () => {
      const r = await cluster.db.query<{ live_status: string; desired_state: string }>(
        'SELECT live_status, desired_state FROM servers WHERE id = $1',
        [owner.serverId],
      );
      return r.rows[0]?.live_status === 'ONLINE' ? r.rows[0] : undefined;
    }, 'live_status ONLINE in the row');
    assert.equal(row.desired_state, 'running');

    // Until the lease runs out the dead replica's action holds the server: refused, and nothing changes.
    const early = await call(leader.url, owner.token, 'POST', `/users/${owner.id}/server/${name}/stop`);
    if (Date.now() < Number(lock.rows[0]?.until)) {
      assert.equal(early.status, 409, JSON.stringify(early.body));
      assert.equal(cluster.stand.objects.get('gameservers', gsName)?.status?.state, 'Ready');
    }
    await untilValue(
      async () => (Date.now() > Number(lock.rows[0]?.until) ? true : undefined),
      'the lease to expire',
      LEASE_TTL_MS + 5000,
    );
    const stop = await call(leader.url, owner.token, 'POST', `/users/${owner.id}/server/${name}/stop`);
    assert.equal(stop.status, 202, JSON.stringify(stop.body));
    await allShow(name, 'OFFLINE');
    assert.equal(cluster.stand.objects.get('gameservers', gsName), undefined);
  });
});
