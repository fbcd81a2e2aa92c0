import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { objectNames } from '../src/runtime/kubernetes/names.ts';
import { RuntimeBusyError } from '../src/runtime/types.ts';
import { dialects } from './support/databases.ts';
import { addServer, type Cluster, replica, setDesired, startCluster, startServer } from './support/k8s-driver.ts';
import { until } from './support/until.ts';

// Several api replicas, each with its own kubernetes driver and database pool, on one cluster and one database:
// the power lock holds across them (a lease in the servers row), each sees every change, and console lines reach
// a browser's replica straight from the engine.

for (const dialect of dialects)
  describe(`kubernetes driver: two replicas (${dialect})`, () => {
    let cluster: Cluster;
    const drivers: Array<{ d: { shutdown(o: { stopServers: boolean }): Promise<void> } }> = [];
    before(async () => {
      cluster = await startCluster(dialect);
    });
    after(async () => {
      for (const r of drivers) await r.d.shutdown({ stopServers: true }).catch(() => {});
      await cluster?.close();
    });

    it('lets one of two racing starts win; the other is refused as busy', async () => {
      const spec = await addServer(cluster.db);
      const a = await replica(cluster, [spec], { leader: () => true });
      const b = await replica(cluster, [spec], { leader: () => false, db: await cluster.connect() });
      drivers.push(a, b);
      await setDesired(cluster.db, spec.id, 'running');
      const creates = () =>
        cluster.stand.requests.filter((r) => r.method === 'POST' && r.path.includes('/gameservers')).length;
      const before = creates();
      // Both take their own replica's lock at once; the lease in the database lets one through.
      const outcomes = await Promise.allSettled([a.d.start(spec), b.d.start(spec)]);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o) => o.status === 'rejected');
      assert.equal(won.length, 1, 'one start went ahead');
      assert.equal(lost.length, 1);
      assert.ok((lost[0] as PromiseRejectedResult).reason instanceof RuntimeBusyError, 'the other was refused as busy');
      assert.equal(creates() - before, 1, 'one GameServer was made');
      for (const r of [a, b])
        await until(() => r.d.state(spec.id).status === 'ONLINE', 'each replica to see it ONLINE');
      assert.deepEqual(b.d.state(spec.id).address, a.d.state(spec.id).address);

      // The loser's claimed() told it; a stop from either replica works once the start is done.
      await b.d.stop(spec.id);
      await until(() => a.d.state(spec.id).status === 'OFFLINE', 'the other replica to see it stop');
    });

    it("brings an engine's console lines to the replica a browser watches from", async () => {
      const spec = await addServer(cluster.db);
      const a = await replica(cluster, [spec], { leader: () => true });
      const b = await replica(cluster, [spec], { leader: () => false, db: await cluster.connect() });
      drivers.push(a, b);
      await startServer(a.d, cluster.db, spec);
      await until(() => b.d.state(spec.id).status === 'ONLINE', 'replica B to see it ONLINE');

      const watch = b.d.watchConsole(spec.id);
      await watch.ready;
      assert.ok(
        b.d.consoleHistory(spec.id).some((l) => l.includes('[INFO] READY')),
        "B's history is the engine's kept lines",
      );
      await a.d.sendCommand(spec.id, 'say hello from replica A');
      await until(
        () => (b.lines.get(spec.id) ?? []).some((l) => l.includes('[SERVER] hello from replica A')),
        'the line on replica B',
      );
      assert.equal(a.lines.get(spec.id), undefined, 'A follows no console nobody watches there');

      // After a restart (a new engine, its lines numbered from 1 again) the watch goes on with the new engine.
      await a.d.restart(spec);
      await until(() => b.d.state(spec.id).status === 'ONLINE', 'B to see it back');
      await b.d.sendCommand(spec.id, 'say hello again');
      await until(
        () => (b.lines.get(spec.id) ?? []).some((l) => l.includes('[SERVER] hello again')),
        "the new engine's line on B",
      );
      watch.end();
      await a.d.stop(spec.id);
    });

    it('serves an offline server’s files from either replica through one maintenance pod', async () => {
      const spec = await addServer(cluster.db);
      const a = await replica(cluster, [spec], { leader: () => true });
      const b = await replica(cluster, [spec], { leader: () => false, db: await cluster.connect() });
      drivers.push(a, b);
      await a.d.files(spec).write('creators.json', Buffer.from('["Alice"]'));
      assert.equal((await b.d.files(spec).read('creators.json'))?.toString(), '["Alice"]');
      const pods = cluster.stand.objects.list('pods').filter((p) => p.metadata.name === objectNames(spec.id).filesPod);
      assert.equal(pods.length, 1);
      // A start on B removes it first, under the lock; the running engine then answers for the files.
      await startServer(b.d, cluster.db, spec);
      assert.equal(cluster.stand.objects.get('pods', objectNames(spec.id).filesPod), undefined);
      assert.equal((await a.d.files(spec).read('creators.json'))?.toString(), '["Alice"]');
      await a.d.stop(spec.id);
    });
  });
