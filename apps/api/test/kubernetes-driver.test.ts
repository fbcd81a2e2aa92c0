import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KubeConfig, type V1Container, type V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { GameServer } from '../src/runtime/kubernetes/agones.ts';
import { objectNames } from '../src/runtime/kubernetes/names.ts';
import { RuntimeBusyError } from '../src/runtime/types.ts';
import {
  addServer,
  type Cluster,
  clusterPerSuite,
  replica,
  startCluster,
  startServer,
  transitions,
} from './support/k8s-driver.ts';
import { until } from './support/until.ts';

// The kubernetes runtime driver against the stand-in cluster (support/k8s-stand-in/): every GameServer's pod is a
// real engine process. Power actions, the objects made, an api restart, deletion.

describe('kubernetes driver: power actions and objects', () => {
  const suite = clusterPerSuite();

  const gameServer = (id: string) => suite.cluster.stand.objects.get('gameservers', objectNames(id).gameServer);
  const pod = (name: string) => suite.cluster.stand.objects.get('pods', name);

  it('starts a GameServer to ONLINE with its address, labelled and limited by the plan, then stops it', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec], { memoryLimitMB: async () => 320 });
    suite.drivers.push(r);
    assert.equal(r.d.notReady(), undefined, 'listed the cluster: ready');
    await startServer(r.d, suite.cluster.db, spec);
    const state = r.d.state(spec.id);
    assert.equal(state.status, 'ONLINE');
    const gs = gameServer(spec.id);
    assert.ok(gs, 'the GameServer exists');
    const allocated = (gs.status as { ports: { name: string; port: number }[] }).ports.find((p) => p.name === 'game');
    assert.deepEqual(state.address, { host: (gs.status as { address: string }).address, port: allocated?.port });
    assert.equal(typeof (await r.d.control(spec.id)?.stats())?.version, 'string', 'the engine answers on its pod IP');
    await until(() => r.d.state(spec.id).version !== 'N/A', "the engine's version, read from its /stats");

    const labels = gs.metadata.labels ?? {};
    assert.equal(labels['app.kubernetes.io/managed-by'], 'canopy');
    assert.equal(labels['canopy.gg/server'], spec.id);
    assert.equal(labels['canopy.gg/owner'], spec.ownerId);
    const container = (gs as unknown as GameServer).spec.template.spec?.containers[0] as V1Container;
    assert.deepEqual(container.resources, { requests: { memory: '320Mi' }, limits: { memory: '320Mi' } });
    assert.ok(
      container.command?.some((a) => a.startsWith('--max-old-space-size=')),
      'the heap limit of the plan',
    );
    assert.deepEqual(container.env?.find((e) => e.name === 'CANOPY_ENGINE_SECRET')?.valueFrom, {
      secretKeyRef: { name: objectNames(spec.id).secret, key: 'secret' },
    });
    assert.deepEqual(container.volumeMounts, [{ name: 'data', mountPath: '/data' }]);
    // Reached on the pod's IP: the engine refuses a non-loopback control host unless told it is exposed (the stand-in
    // maps 0.0.0.0 to a loopback pod IP, so only this check would see it missing).
    const args = container.args ?? [];
    assert.equal(args[args.indexOf('--control-host') + 1], '0.0.0.0');
    assert.ok(args.includes('--control-exposed'), args.join(' '));
    // What a real cluster needs that the stand-in would not notice: a data directory the non-root engine makes on
    // the volume, the image's working directory, no restart in place, and a control port clear of Agones' sidecar.
    assert.equal(args[args.indexOf('--data-dir') + 1], '/data/server');
    assert.equal(container.workingDir, '/app');
    const podSpec = (gs as unknown as GameServer).spec.template.spec;
    assert.equal(podSpec?.restartPolicy, 'Never');
    assert.equal(podSpec?.securityContext?.runAsNonRoot, true);
    assert.equal(podSpec?.securityContext?.fsGroup, 1000);
    assert.notEqual(args[args.indexOf('--control-port') + 1], '8080');
    const claim = suite.cluster.stand.objects.get('persistentvolumeclaims', objectNames(spec.id).volumeClaim) as
      | V1PersistentVolumeClaim
      | undefined;
    assert.equal(claim?.spec?.resources?.requests?.storage, '1Gi');
    assert.equal(claim?.metadata?.labels?.['canopy.gg/server'], spec.id);
    assert.ok(suite.cluster.stand.objects.get('secrets', objectNames(spec.id).secret), 'the Secret exists');
    assert.deepEqual(suite.cluster.stand.warnings, [], 'no field the API does not know');

    await r.d.stop(spec.id);
    assert.equal(r.d.state(spec.id).status, 'OFFLINE');
    assert.equal(gameServer(spec.id), undefined, 'the GameServer is gone');
    assert.equal(pod(objectNames(spec.id).gameServer), undefined, 'its pod too');
    assert.deepEqual(transitions(r, spec.id).slice(-4), ['STARTING', 'ONLINE', 'STOPPING', 'OFFLINE']);
    assert.ok(suite.cluster.stand.objects.get('persistentvolumeclaims', objectNames(spec.id).volumeClaim), 'data kept');
  });

  it('refuses a second action while one runs, and a start of a running server', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec]);
    suite.drivers.push(r);
    const starting = startServer(r.d, suite.cluster.db, spec);
    await until(() => r.d.isBusy(spec.id), 'the start to hold the lock');
    assert.throws(() => r.d.stop(spec.id), RuntimeBusyError);
    await starting;
    await assert.rejects(r.d.start(spec), RuntimeBusyError);
    await r.d.stop(spec.id);
  });

  it('restarts into a new engine, the reason in the console first', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec]);
    suite.drivers.push(r);
    await startServer(r.d, suite.cluster.db, spec);
    const before = pod(objectNames(spec.id).gameServer)?.metadata.uid;
    await r.d.restart(spec, 'Restarting to apply a test');
    assert.equal(r.d.state(spec.id).status, 'ONLINE');
    const now = pod(objectNames(spec.id).gameServer)?.metadata.uid;
    assert.ok(now && now !== before, 'a new pod runs the engine');
    assert.ok(r.d.consoleHistory(spec.id).some((l) => l.endsWith('[INFO] Restarting to apply a test.')));
    assert.deepEqual(transitions(r, spec.id).slice(-2), ['RESTARTING', 'ONLINE']);
    await r.d.stop(spec.id);
  });

  it('adopts a running GameServer after an api restart without restarting it', async () => {
    const spec = await addServer(suite.cluster.db);
    const first = await replica(suite.cluster, [spec]);
    await startServer(first.d, suite.cluster.db, spec);
    const gsUid = gameServer(spec.id)?.metadata.uid;
    const podUid = pod(objectNames(spec.id).gameServer)?.metadata.uid;
    // The api goes away without stopping its servers; a new one starts and reconciles.
    await first.d.shutdown({ stopServers: false });
    const second = await replica(suite.cluster, [spec]);
    suite.drivers.push(second);
    assert.equal(second.d.state(spec.id).status, 'ONLINE');
    assert.equal(gameServer(spec.id)?.metadata.uid, gsUid, 'the same GameServer');
    assert.equal(pod(objectNames(spec.id).gameServer)?.metadata.uid, podUid, 'the same engine');
    assert.ok(!second.statuses.get(spec.id)?.includes('STARTING'), 'nothing was started');
    assert.equal(typeof (await second.d.control(spec.id)?.stats())?.uptime, 'number');
    await second.d.stop(spec.id);
  });

  it('holds the lock for exclusive work on a stopped server, whose files a maintenance pod serves', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec]);
    suite.drivers.push(r);
    await startServer(r.d, suite.cluster.db, spec);
    await assert.rejects(
      r.d.exclusive(spec, async () => 'ran', { stopRunning: false }),
      RuntimeBusyError,
      'refused while it runs',
    );
    const read = await r.d.exclusive(spec, async () => {
      assert.equal(gameServer(spec.id), undefined, 'stopped first');
      assert.throws(() => r.d.start(spec), RuntimeBusyError, 'nothing starts meanwhile');
      await r.d.files(spec).write('newbie-kit.json', Buffer.from('{"gems":5}'));
      return (await r.d.files(spec).read('newbie-kit.json'))?.toString();
    });
    assert.equal(read, '{"gems":5}');
    assert.equal(r.d.state(spec.id).status, 'OFFLINE');
  });

  it('deletes an idle maintenance pod (the leader sweeps it)', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec], { filesIdleMs: 300 });
    suite.drivers.push(r);
    assert.equal(await r.d.files(spec).read('creators.json'), undefined);
    assert.ok(pod(objectNames(spec.id).filesPod), 'made for the call');
    await until(() => pod(objectNames(spec.id).filesPod) === undefined, 'the idle pod to go');
  });

  it('deletes the GameServer, the maintenance pod, the Secret and the volume on remove', async () => {
    const spec = await addServer(suite.cluster.db);
    const r = await replica(suite.cluster, [spec]);
    suite.drivers.push(r);
    // While offline, file calls go to a maintenance pod on the server's volume.
    await r.d.files(spec).write('server-config.json', Buffer.from('{"autofarmDelay":1500}'));
    assert.ok(pod(objectNames(spec.id).filesPod), 'a maintenance pod serves the files');
    await startServer(r.d, suite.cluster.db, spec);
    assert.equal(pod(objectNames(spec.id).filesPod), undefined, 'gone before the GameServer started');
    assert.equal((await r.d.files(spec).read('server-config.json'))?.toString(), '{"autofarmDelay":1500}');
    await r.d.remove(spec);
    assert.equal(r.d.isRemoved(spec.id), true);
    for (const [plural, name] of [
      ['gameservers', objectNames(spec.id).gameServer],
      ['pods', objectNames(spec.id).gameServer],
      ['pods', objectNames(spec.id).filesPod],
      ['secrets', objectNames(spec.id).secret],
      ['persistentvolumeclaims', objectNames(spec.id).volumeClaim],
    ] as const)
      assert.equal(suite.cluster.stand.objects.get(plural, name), undefined, `${plural}/${name} deleted`);
    assert.throws(() => r.d.start(spec), RuntimeBusyError);
  });
});

describe('kubernetes driver: a cluster that cannot be reached', () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster();
  });
  after(() => cluster?.close());

  it('lets the api start (its servers UNKNOWN) and fails an action instead of waiting for ever', async () => {
    const spec = await addServer(cluster.db);
    // A kubeconfig naming a port nothing listens on.
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'away', server: 'https://127.0.0.1:9', skipTLSVerify: true }],
      users: [{ name: 'u', token: 'x' }],
      contexts: [{ name: 'away', cluster: 'away', user: 'u' }],
      currentContext: 'away',
    });
    const r = await replica(cluster, [spec], {
      kubeConfig,
      listWaitMs: 200,
      timeouts: { startMs: 300, stopMs: 100, killMs: 100 },
    });
    assert.equal(r.d.state(spec.id).status, 'UNKNOWN');
    assert.equal(r.d.notReady(), 'the Kubernetes API has not been reached yet', '/readyz keeps the replica out');
    await assert.rejects(r.d.start(spec), /cannot be reached/);
    assert.equal(r.d.isBusy(spec.id), false, 'the lock is given back');
    await r.d.shutdown({ stopServers: false });
  });
});
