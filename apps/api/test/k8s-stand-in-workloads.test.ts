// The Kubernetes stand-in's node (ADR 0042): pods run as local processes with their secrets, volumes, pod IPs and
// probes; GameServers run real engines and move through Agones' states as the engine and the SDK tell them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { type K8sStandIn, startK8sStandIn } from './support/k8s-stand-in/index.ts';
import type { KubeObject } from './support/k8s-stand-in/resources.ts';
import { until, untilValue } from './support/until.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const SECRET = 'k8s-stand-in-secret-0123456789abcdef';

let cluster: K8sStandIn;
let kc: k8s.KubeConfig;
let core: k8s.CoreV1Api;
let custom: k8s.CustomObjectsApi;
let ns: string;
const gs = () => ({ group: 'agones.dev', version: 'v1', namespace: ns, plural: 'gameservers' });

before(async () => {
  cluster = await startK8sStandIn({ root });
  kc = new k8s.KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
  custom = kc.makeApiClient(k8s.CustomObjectsApi);
  ns = cluster.namespace;
  await core.createNamespacedSecret({
    namespace: ns,
    body: { metadata: { name: 'engine' }, stringData: { secret: SECRET } },
  });
});
after(() => cluster?.stop());

/** A pod running `node -e script` (CommonJS, cwd the repository root). */
function scriptPod(name: string, script: string, extra: { spec?: object; container?: object } = {}): k8s.V1Pod {
  return {
    metadata: { name },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'node', command: ['node', '-e', script], ...extra.container }],
      ...extra.spec,
    },
  };
}

const pod = (name: string) => cluster.objects.get('pods', name);
const phase = (name: string) => pod(name)?.status?.phase;
const ready = (name: string) =>
  pod(name)?.status?.conditions?.find((c: { type: string }) => c.type === 'Ready')?.status;
const state = (name: string) => cluster.objects.get('gameservers', name)?.status?.state;
/** Waits for the pod's log to hold `text` (the script is past its set-up). */
const logged = (name: string, text: string) =>
  untilValue(async () => {
    const log = await core.readNamespacedPodLog({ namespace: ns, name }).catch(() => '');
    return log.includes(text) ? true : undefined;
  }, `${name} logging ${text}`);
const pidOf = (p: KubeObject | undefined) =>
  Number(/\d+$/.exec(p?.status?.containerStatuses?.[0]?.containerID ?? '')?.[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('pods', () => {
  it('runs a pod to Succeeded or Failed, with its output as the pod log', async () => {
    await core.createNamespacedPod({
      namespace: ns,
      body: scriptPod('done', "console.log('one'); console.log('two')"),
    });
    await until(() => phase('done') === 'Succeeded', 'done Succeeded');
    assert.deepEqual(pod('done')?.status.containerStatuses[0].state.terminated.exitCode, 0);
    assert.equal(await core.readNamespacedPodLog({ namespace: ns, name: 'done' }), 'one\ntwo\n');
    assert.equal(await core.readNamespacedPodLog({ namespace: ns, name: 'done', tailLines: 1 }), 'two\n');

    await core.createNamespacedPod({ namespace: ns, body: scriptPod('crash', 'setInterval(() => {}, 1000)') });
    await until(() => phase('crash') === 'Running' && ready('crash') === 'True', 'crash Running and Ready');
    assert.match(pod('crash')?.status.podIP, /^127\.\d+\.\d+\.\d+$/);
    cluster.killProcess('crash');
    await until(() => phase('crash') === 'Failed', 'crash Failed');
    assert.deepEqual(
      [
        pod('crash')?.status.containerStatuses[0].state.terminated.exitCode,
        pod('crash')?.status.containerStatuses[0].state.terminated.reason,
      ],
      [137, 'Error'],
    );
  });

  it('kills a container over its memory limit as OOMKilled', async () => {
    const script = 'const kept = []; setInterval(() => kept.push(Buffer.alloc(8e6, 1)), 20)';
    const container = { resources: { requests: { memory: '64Mi' }, limits: { memory: '64Mi' } } };
    await core.createNamespacedPod({ namespace: ns, body: scriptPod('hungry', script, { container }) });
    await until(() => phase('hungry') === 'Failed', 'hungry Failed');
    const ended = pod('hungry')?.status.containerStatuses[0].state.terminated;
    assert.deepEqual([ended.reason, ended.exitCode], ['OOMKilled', 137]);
  });

  it('resolves env from secrets and the pod IP, and waits with CreateContainerConfigError for a missing secret', async () => {
    const container = {
      env: [
        { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'later', key: 'token' } } },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'BOTH', value: '$(TOKEN)@$(POD_IP)' },
      ],
    };
    await core.createNamespacedPod({
      namespace: ns,
      body: scriptPod('env', 'console.log(process.env.BOTH)', { container }),
    });
    await until(
      () => pod('env')?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerConfigError',
      'the config error',
    );
    assert.match(pod('env')?.status.containerStatuses[0].state.waiting.message, /secret "later" not found/);
    await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'later' }, stringData: { token: 't0k' } },
    });
    await until(() => phase('env') === 'Succeeded', 'env Succeeded once the secret exists');
    assert.equal(await core.readNamespacedPodLog({ namespace: ns, name: 'env' }), `t0k@${pod('env')?.status.podIP}\n`);
  });

  it("keeps a claim's files across pods, and deletes the claim only once no pod uses it", async () => {
    await core.createNamespacedPersistentVolumeClaim({
      namespace: ns,
      body: {
        metadata: { name: 'files' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    });
    const mounted = (name: string, script: string, args: string[]) =>
      scriptPod(name, script, {
        container: { args, volumeMounts: [{ name: 'data', mountPath: '/srv/data' }] },
        spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'files' } }] },
      });
    await core.createNamespacedPod({
      namespace: ns,
      body: mounted('writer', "require('fs').writeFileSync(process.argv[1], 'kept')", ['/srv/data/note']),
    });
    await until(() => phase('writer') === 'Succeeded', 'writer Succeeded');
    await core.createNamespacedPod({
      namespace: ns,
      body: mounted(
        'reader',
        "console.log(require('fs').readFileSync(process.argv[1], 'utf8')); setInterval(() => {}, 1000)",
        ['/srv/data/note'],
      ),
    });
    await until(() => phase('reader') === 'Running', 'reader Running');
    await untilValue(
      async () =>
        (await core.readNamespacedPodLog({ namespace: ns, name: 'reader' })) === 'kept\n' ? true : undefined,
      'the file read back',
    );

    await core.deleteNamespacedPersistentVolumeClaim({ namespace: ns, name: 'files' });
    const claim = cluster.objects.get('persistentvolumeclaims', 'files');
    assert.ok(claim?.metadata.deletionTimestamp, 'Terminating while the reader uses it');
    await core.deleteNamespacedPod({ namespace: ns, name: 'reader' });
    await until(() => !cluster.objects.get('persistentvolumeclaims', 'files'), 'the claim gone with its last user');
  });

  it('is Ready only once its readiness probe passes', async () => {
    const script =
      "process.on('SIGUSR2', () => require('net').createServer().listen(9000, process.env.POD_IP)); console.log('armed'); setInterval(() => {}, 1000)";
    const container = {
      env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
      readinessProbe: { tcpSocket: { port: 9000 }, periodSeconds: 1 },
    };
    await core.createNamespacedPod({ namespace: ns, body: scriptPod('probed', script, { container }) });
    await logged('probed', 'armed');
    assert.equal(phase('probed'), 'Running');
    assert.equal(ready('probed'), 'False', 'nothing listens yet');
    cluster.killProcess('probed', 'SIGUSR2');
    await until(() => ready('probed') === 'True', 'Ready once it listens');
  });

  it('sends SIGTERM on delete, then SIGKILL after the grace period, and only then lets the pod go', async () => {
    const events: { type: string; object: KubeObject }[] = [];
    const watch = await new k8s.Watch(kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { fieldSelector: 'metadata.name=stubborn' },
      (type, object) => events.push({ type, object }),
      () => {},
    );
    const script =
      "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('armed'); setInterval(() => {}, 1000)";
    await core.createNamespacedPod({
      namespace: ns,
      body: scriptPod('stubborn', script, { spec: { terminationGracePeriodSeconds: 1 } }),
    });
    await logged('stubborn', 'armed');
    const pid = pidOf(pod('stubborn'));
    const deleted = await core.deleteNamespacedPod({ namespace: ns, name: 'stubborn' });
    assert.ok(deleted.metadata?.deletionTimestamp, 'graceful: the answer has a deletionTimestamp');
    await until(() => events.some((e) => e.type === 'DELETED'), 'DELETED');
    watch.abort();
    assert.ok(!alive(pid), 'the process is gone');
    const last = events.at(-1)?.object;
    assert.deepEqual(
      [
        last?.status.containerStatuses[0].state.terminated.exitCode,
        last?.status.containerStatuses[0].state.terminated.signal,
      ],
      [137, 9],
    );
  });
});

/** A GameServer running a real engine on the claim `data-<name>`, its secret from the Secret "engine". */
function engineServer(name: string): object {
  return {
    apiVersion: 'agones.dev/v1',
    kind: 'GameServer',
    metadata: { name },
    spec: {
      ports: [{ name: 'game', containerPort: 7777, protocol: 'UDP' }],
      template: {
        spec: {
          containers: [
            {
              name: 'engine',
              image: 'canopy/engine',
              command: ['node', 'packages/engine/src/main.ts'],
              args: [
                '--data-dir',
                '/data',
                '--game-port',
                '7777',
                '--control-host',
                '0.0.0.0',
                '--control-port',
                '8080',
              ],
              env: [{ name: 'CANOPY_ENGINE_SECRET', valueFrom: { secretKeyRef: { name: 'engine', key: 'secret' } } }],
              volumeMounts: [{ name: 'data', mountPath: '/data' }],
            },
          ],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${name}` } }],
        },
      },
    },
  };
}

/** The engine's /stats on the pod's IP at the control port every engine uses. */
async function stats(name: string): Promise<number> {
  const res = await fetch(`http://${pod(name)?.status.podIP}:8080/stats`, {
    headers: { authorization: `Bearer ${SECRET}` },
  });
  await res.body?.cancel();
  return res.status;
}

describe('GameServers', () => {
  it('run real engines that reach Ready with an address and port, answer on podIP:8080, go Unhealthy when killed and go when deleted', async () => {
    const events: string[] = [];
    const watch = await new k8s.Watch(kc).watch(
      `/apis/agones.dev/v1/namespaces/${ns}/gameservers`,
      {},
      (type, object) => events.push(`${type} ${object.metadata.name} ${object.status?.state}`),
      () => {},
    );
    for (const name of ['engine-a', 'engine-b']) {
      await core.createNamespacedPersistentVolumeClaim({
        namespace: ns,
        body: {
          metadata: { name: `data-${name}` },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      });
      await custom.createNamespacedCustomObject({ ...gs(), body: engineServer(name) });
    }
    await until(() => state('engine-a') === 'Ready' && state('engine-b') === 'Ready', 'both Ready', 60_000);
    const a = cluster.objects.get('gameservers', 'engine-a');
    const b = cluster.objects.get('gameservers', 'engine-b');
    assert.equal(a?.status.address, '127.0.0.1');
    assert.notEqual(a?.status.ports[0].port, b?.status.ports[0].port);
    assert.match(
      await core.readNamespacedPodLog({ namespace: ns, name: 'engine-a' }),
      new RegExp(
        `READY control=${pod('engine-a')?.status.podIP.replaceAll('.', '\\.')}:8080 game=${a?.status.ports[0].port} `,
      ),
    );
    assert.notEqual(pod('engine-a')?.status.podIP, pod('engine-b')?.status.podIP);
    assert.deepEqual([await stats('engine-a'), await stats('engine-b')], [200, 200]);
    await until(() => cluster.healthPings('engine-a') > 0, 'a health ping from the engine');

    cluster.killProcess('engine-a');
    await until(() => state('engine-a') === 'Unhealthy', 'engine-a Unhealthy after kill -9');
    assert.equal(state('engine-b'), 'Ready');

    const pid = pidOf(pod('engine-b'));
    await custom.deleteNamespacedCustomObject({ ...gs(), name: 'engine-b' });
    await until(() => events.some((e) => e.startsWith('DELETED engine-b')), 'engine-b DELETED', 30_000);
    assert.ok(!alive(pid), 'the engine process is gone');
    assert.equal(pod('engine-b'), undefined);
    watch.abort();
    assert.ok(events.indexOf('MODIFIED engine-a Ready') < events.indexOf('MODIFIED engine-a Unhealthy'));
    await custom.deleteNamespacedCustomObject({ ...gs(), name: 'engine-a' });
    await until(() => !cluster.objects.get('gameservers', 'engine-a'), 'engine-a deleted');
  });

  /** A GameServer whose game process is a script using the Agones SDK. */
  const sdkServer = (name: string, script: string, health: object) => ({
    apiVersion: 'agones.dev/v1',
    kind: 'GameServer',
    metadata: { name },
    spec: {
      ports: [
        { name: 'game', containerPort: 7000, portPolicy: 'Static', hostPort: 7000 + Math.floor(Math.random() * 900) },
      ],
      health,
      template: {
        spec: {
          containers: [
            {
              name: 'game',
              image: 'x',
              command: [
                'node',
                '-e',
                `const sdk = new (require('@google-cloud/agones-sdk'))(); (async () => { await sdk.connect(); ${script} })(); setInterval(() => {}, 1000);`,
              ],
            },
          ],
        },
      },
    },
  });

  it('moves to Unhealthy when Health pings stop, and away through Shutdown', async () => {
    await custom.createNamespacedCustomObject({
      ...gs(),
      body: sdkServer('silent', 'await sdk.ready();', {
        periodSeconds: 1,
        failureThreshold: 1,
        initialDelaySeconds: 1,
      }),
    });
    await until(() => state('silent') === 'Unhealthy', 'silent Unhealthy without pings');

    // What GetGameServer tells (a port, a label set before) comes back through SetLabel; then Shutdown ends it.
    const events: { type: string; object: KubeObject }[] = [];
    const watch = await new k8s.Watch(kc).watch(
      `/apis/agones.dev/v1/namespaces/${ns}/gameservers`,
      { fieldSelector: 'metadata.name=leaving' },
      (type, object) => events.push({ type, object }),
      () => {},
    );
    const script = [
      "await sdk.setLabel('first', 'x');",
      'await sdk.ready();',
      'const gs = await sdk.getGameServer();',
      "const first = new Map(gs.objectMeta.labelsMap).get('agones.dev/sdk-first');",
      "await sdk.setLabel('port', gs.status.portsList[0].port + '-' + first);",
      'await sdk.shutdown();',
    ].join(' ');
    const created = (await custom.createNamespacedCustomObject({
      ...gs(),
      body: sdkServer('leaving', script, { disabled: true }),
    })) as KubeObject;
    await until(() => events.some((e) => e.type === 'DELETED'), 'leaving DELETED after Shutdown');
    watch.abort();
    const labelled = events.find((e) => e.object.metadata.labels?.['agones.dev/sdk-port']);
    assert.equal(labelled?.object.metadata.labels?.['agones.dev/sdk-port'], `${created.spec.ports[0].hostPort}-x`);
    const states = events.map((e) => e.object.status.state);
    assert.ok(states.indexOf('Ready') < states.indexOf('Shutdown'), states.join(' '));
    await custom.deleteNamespacedCustomObject({ ...gs(), name: 'silent' });
  });
});
