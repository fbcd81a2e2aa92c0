// The Kubernetes stand-in (test/support/k8s-stand-in, ADR 0042) as client-node sees it: REST, watch, informers,
// discovery, auth, and the schema checks against Kubernetes' OpenAPI and Agones' CRD. Workloads (processes,
// GameServers running engines) are in k8s-stand-in-workloads.test.ts.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { type K8sStandIn, startK8sStandIn } from './support/k8s-stand-in/index.ts';
import { until } from './support/until.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

/** The Status a client-node call was refused with. */
async function refused(call: Promise<unknown>): Promise<{
  code: number;
  reason: string;
  message: string;
  kind: string;
  details?: { causes?: { field: string }[] };
}> {
  try {
    await call;
  } catch (error) {
    const body = (error as { body?: unknown }).body;
    return typeof body === 'string' ? JSON.parse(body) : (body as never);
  }
  throw new Error('the call was not refused');
}

/** A GameServer the Agones webhooks accept; `spec` overrides. */
function gameServer(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'agones.dev/v1',
    kind: 'GameServer',
    metadata: { name, labels: { app: 'canopy' } },
    spec: {
      ports: [{ name: 'game', containerPort: 7777, protocol: 'UDP' }],
      template: {
        spec: {
          containers: [
            { name: 'engine', image: 'canopy/engine', command: ['node', '-e', 'setInterval(() => {}, 1000)'] },
          ],
        },
      },
      ...spec,
    },
  };
}

let cluster: K8sStandIn;
let kc: k8s.KubeConfig;
let core: k8s.CoreV1Api;
let custom: k8s.CustomObjectsApi;
let ns: string;
const gs = (namespace: string) => ({ group: 'agones.dev', version: 'v1', namespace, plural: 'gameservers' });

before(async () => {
  cluster = await startK8sStandIn({ root, historyLimit: 50 });
  kc = new k8s.KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
  custom = kc.makeApiClient(k8s.CustomObjectsApi);
  ns = cluster.namespace;
});
after(() => cluster.stop());

describe('REST', () => {
  it('creates, reads, lists by label, replaces, patches and deletes as the API server does', async () => {
    const created = await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'rest-a', labels: { app: 'canopy', tier: 'x' } }, stringData: { secret: 'one' } },
    });
    assert.equal(created.data?.secret, Buffer.from('one').toString('base64'), 'stringData is stored as data');
    assert.equal(created.stringData, undefined);
    assert.equal(created.type, 'Opaque');
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.match(created.metadata?.resourceVersion ?? '', /^\d+$/);
    assert.match(String(created.metadata?.creationTimestamp), /2\d{3}/);
    await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'rest-b', labels: { app: 'other' } } },
    });

    const listed = await core.listNamespacedSecret({ namespace: ns, labelSelector: 'app=canopy,tier in (x,y)' });
    assert.deepEqual(
      listed.items.map((s) => s.metadata?.name),
      ['rest-a'],
    );
    assert.ok(Number(listed.metadata?.resourceVersion) >= Number(created.metadata?.resourceVersion));

    const again = await refused(core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'rest-a' } } }));
    assert.deepEqual([again.kind, again.code, again.reason], ['Status', 409, 'AlreadyExists']);

    // A replace from a stale read is a conflict; from the newest it goes through and bumps resourceVersion.
    const patched = await core.patchNamespacedSecret({
      namespace: ns,
      name: 'rest-a',
      body: [{ op: 'add', path: '/data/more', value: 'eA==' }],
    });
    const stale = await refused(core.replaceNamespacedSecret({ namespace: ns, name: 'rest-a', body: created }));
    assert.deepEqual([stale.code, stale.reason], [409, 'Conflict']);
    const replaced = await core.replaceNamespacedSecret({
      namespace: ns,
      name: 'rest-a',
      body: { ...patched, data: { only: 'eQ==' } },
    });
    assert.deepEqual(replaced.data, { only: 'eQ==' });
    assert.ok(Number(replaced.metadata?.resourceVersion) > Number(patched.metadata?.resourceVersion));
    const merged = await core.patchNamespacedSecret(
      { namespace: ns, name: 'rest-a', body: { metadata: { labels: { tier: null } } } },
      merge,
    );
    assert.deepEqual(merged.metadata?.labels, { app: 'canopy' });

    await core.deleteNamespacedSecret({ namespace: ns, name: 'rest-a' });
    const gone = await refused(core.readNamespacedSecret({ namespace: ns, name: 'rest-a' }));
    assert.deepEqual([gone.code, gone.reason, gone.message], [404, 'NotFound', 'secrets "rest-a" not found']);
    const twice = await refused(core.deleteNamespacedSecret({ namespace: ns, name: 'rest-a' }));
    assert.equal(twice.code, 404);
    const nowhere = await refused(
      core.createNamespacedSecret({ namespace: 'nowhere', body: { metadata: { name: 'x' } } }),
    );
    assert.deepEqual([nowhere.code, nowhere.message], [404, 'namespaces "nowhere" not found']);
  });

  it('answers 401 with a Status to any other token', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${cluster.url}/api/v1/namespaces/${ns}/pods`,
        { ca: cluster.ca, headers: { authorization: 'Bearer wrong' } },
        (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(answer.status, 401);
    assert.deepEqual(JSON.parse(answer.body), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('serves discovery enough for KubernetesObjectApi and /version', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    await objects.create(gameServer('discovered'));
    const read = await objects.read({
      apiVersion: 'agones.dev/v1',
      kind: 'GameServer',
      metadata: { name: 'discovered', namespace: ns },
    });
    assert.equal(read.metadata?.name, 'discovered');
    const version = await kc.makeApiClient(k8s.VersionApi).getCode();
    assert.equal(version.major, '1');
    await custom.deleteNamespacedCustomObject({ ...gs(ns), name: 'discovered' });
  });
});

describe('watch', () => {
  it('streams the events after a resourceVersion to client-node Watch, and 410 Expired from before its history', async () => {
    const start = await core.listNamespacedSecret({ namespace: ns });
    const from = start.metadata?.resourceVersion ?? '';
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'watched' } } });
    await core.patchNamespacedSecret(
      { namespace: ns, name: 'watched', body: { metadata: { labels: { a: 'b' } } } },
      merge,
    );
    await core.deleteNamespacedSecret({ namespace: ns, name: 'watched' });

    const events: string[] = [];
    const watch = new k8s.Watch(kc);
    const stop = await watch.watch(
      `/api/v1/namespaces/${ns}/secrets`,
      { resourceVersion: from, allowWatchBookmarks: true },
      (type, object) => {
        events.push(`${type} ${object.metadata?.name ?? ''}`);
      },
      () => {},
    );
    await until(() => events.length >= 3, 'three events');
    stop.abort();
    assert.deepEqual(events.slice(0, 3), ['ADDED watched', 'MODIFIED watched', 'DELETED watched']);

    // 50 events kept: 60 more writes push `from` out of the history.
    for (let i = 0; i < 30; i++) {
      await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: `churn-${i}` } } });
      await core.deleteNamespacedSecret({ namespace: ns, name: `churn-${i}` });
    }
    const expired = await new Promise<{ type: string; object: { code: number; reason: string } }>((resolve) => {
      void watch.watch(
        `/api/v1/namespaces/${ns}/secrets`,
        { resourceVersion: from },
        (type, object) => resolve({ type, object }),
        () => {},
      );
    });
    assert.equal(expired.type, 'ERROR');
    assert.deepEqual([expired.object.code, expired.object.reason], [410, 'Expired']);
  });

  it('watches one object at its own URL, from now, with its current state first', async () => {
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'solo' } } });
    const events: string[] = [];
    const stop = await new k8s.Watch(kc).watch(
      `/api/v1/namespaces/${ns}/secrets/solo`,
      {},
      (type, object) => events.push(`${type} ${object.metadata?.name} ${Object.keys(object.data ?? {}).join()}`),
      () => {},
    );
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'other' } } });
    await core.patchNamespacedSecret({ namespace: ns, name: 'solo', body: { data: { k: 'eA==' } } }, merge);
    await until(() => events.length >= 2, 'two events');
    stop.abort();
    assert.deepEqual(events, ['ADDED solo ', 'MODIFIED solo k']);
  });

  it('keeps a makeInformer cache in step, objects entering and leaving its label selector included', async () => {
    const informer = k8s.makeInformer(
      kc,
      `/apis/agones.dev/v1/namespaces/${ns}/gameservers`,
      () => custom.listNamespacedCustomObject({ ...gs(ns), labelSelector: 'app=canopy' }) as never,
      'app=canopy',
    );
    const seen: string[] = [];
    for (const verb of ['add', 'update', 'delete'] as const)
      informer.on(verb, (o) => seen.push(`${verb} ${o.metadata?.name}`));
    await custom.createNamespacedCustomObject({ ...gs(ns), body: gameServer('informed-a') });
    await informer.start();
    assert.ok(informer.get('informed-a', ns), 'the list filled the cache');
    await custom.createNamespacedCustomObject({
      ...gs(ns),
      body: { ...gameServer('informed-b'), metadata: { name: 'informed-b' } },
    });
    await custom.patchNamespacedCustomObject(
      { ...gs(ns), name: 'informed-b', body: { metadata: { labels: { app: 'canopy' } } } },
      merge,
    );
    await custom.patchNamespacedCustomObject(
      { ...gs(ns), name: 'informed-a', body: { metadata: { labels: { app: 'gone' } } } },
      merge,
    );
    await until(
      () => seen.includes('add informed-b') && seen.includes('delete informed-a'),
      'b entering and a leaving',
    );
    assert.equal(informer.get('informed-a', ns), undefined);
    // The Agones controller moves b along (PortAllocation → Creating → Starting…): updates reach the cache.
    await until(
      () => (informer.get('informed-b', ns) as { status?: { state?: string } })?.status?.state === 'Scheduled',
      'b Scheduled in the cache',
    );
    await informer.stop();
    for (const name of ['informed-a', 'informed-b']) await custom.deleteNamespacedCustomObject({ ...gs(ns), name });
  });
});

describe('schema checks', () => {
  it('refuses a GameServer with a bad port policy: 422 Invalid naming the field, from the Agones CRD schema', async () => {
    const bad = gameServer('bad-policy', { ports: [{ name: 'game', containerPort: 7777, portPolicy: 'Sometimes' }] });
    const status = await refused(custom.createNamespacedCustomObject({ ...gs(ns), body: bad }));
    assert.deepEqual([status.code, status.reason], [422, 'Invalid']);
    assert.match(
      status.message,
      /^GameServer\.agones\.dev "bad-policy" is invalid: spec\.ports\[0\]\.portPolicy: Unsupported value: "Sometimes": supported values: "Dynamic", "Static", "Passthrough", "None"$/,
    );
    assert.equal(cluster.objects.get('gameservers', 'bad-policy'), undefined);
  });

  it('refuses a GameServer the Agones webhook refuses (a hostPort with a Dynamic policy)', async () => {
    const bad = gameServer('bad-host', { ports: [{ name: 'game', containerPort: 7777, hostPort: 7100 }] });
    const status = await refused(custom.createNamespacedCustomObject({ ...gs(ns), body: bad }));
    assert.equal(status.code, 422);
    assert.match(status.message, /spec\.ports\[0\]\.hostPort: Forbidden/);
  });

  it('drops an unknown GameServer field with a warning, and refuses it with fieldValidation=Strict', async () => {
    const body = gameServer('unknown-field', { colour: 'green' });
    const before = cluster.warnings.length;
    const created = (await custom.createNamespacedCustomObject({ ...gs(ns), body })) as {
      spec: Record<string, unknown>;
    };
    assert.equal(created.spec.colour, undefined);
    assert.deepEqual(cluster.warnings.slice(before), ['unknown field "spec.colour"']);
    const strict = await refused(
      custom.createNamespacedCustomObject({
        ...gs(ns),
        body: gameServer('strict', { colour: 'green' }),
        fieldValidation: 'Strict',
      }),
    );
    assert.equal(strict.code, 400);
    assert.match(strict.message, /\.spec\.colour: field not declared in schema/);
    await custom.deleteNamespacedCustomObject({ ...gs(ns), name: 'unknown-field' });
  });

  it('refuses a Pod with a field of the wrong type (400, as the API server fails to decode it) or a bad value (422)', async () => {
    const pod = (container: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'typed' },
      spec: { containers: [{ name: 'c', image: 'x', command: ['node'], ...container }], ...spec },
    });
    const send = (body: unknown) =>
      kc.makeApiClient(k8s.CoreV1Api).createNamespacedPod({ namespace: ns, body: body as k8s.V1Pod });
    // client-node's typed serializer passes the value through, as a driver building objects by hand would.
    const wrongType = await refused(send(pod({ ports: [{ containerPort: '8080' }] })));
    assert.deepEqual([wrongType.code, wrongType.reason], [400, 'BadRequest']);
    assert.match(
      wrongType.message,
      /cannot unmarshal string into Go struct field spec\.containers\[0\]\.ports\[0\]\.containerPort of type integer/,
    );
    const badValue = await refused(send(pod({}, { restartPolicy: 'Sometimes' })));
    assert.deepEqual([badValue.code, badValue.reason], [422, 'Invalid']);
    assert.match(badValue.message, /spec\.restartPolicy: Unsupported value: "Sometimes"/);
    const noImage = await refused(send(pod({ image: undefined })));
    assert.match(noImage.message, /spec\.containers\[0\]\.image: Required value/);
    const noVolume = await refused(send(pod({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })));
    assert.match(noVolume.message, /spec\.containers\[0\]\.volumeMounts\[0\]\.name: Not found: "data"/);
    assert.equal(cluster.objects.get('pods', 'typed'), undefined);
  });

  it('applies the Agones defaults and keeps every write the controller makes valid against the CRD', async () => {
    const created = (await custom.createNamespacedCustomObject({ ...gs(ns), body: gameServer('defaults') })) as {
      metadata: { finalizers: string[] };
      spec: { ports: { portPolicy: string; protocol: string }[]; health: object; container: string };
      status: { state: string };
    };
    assert.deepEqual(
      [created.spec.ports[0]?.portPolicy, created.spec.ports[0]?.protocol, created.spec.container],
      ['Dynamic', 'UDP', 'engine'],
    );
    assert.deepEqual(created.spec.health, { periodSeconds: 5, failureThreshold: 3, initialDelaySeconds: 5 });
    assert.deepEqual(created.metadata.finalizers, ['agones.dev']);
    assert.equal(created.status.state, 'PortAllocation');
    await until(() => cluster.objects.get('gameservers', 'defaults')?.status?.state === 'Scheduled', 'Scheduled');
    const scheduled = cluster.objects.get('gameservers', 'defaults');
    const port = scheduled?.spec.ports[0].hostPort;
    assert.ok(port >= 7000 && port <= 8000, `a Dynamic port from 7000-8000, got ${port}`);
    assert.deepEqual(scheduled?.status.ports, [{ name: 'game', port }]);
    const pod = cluster.objects.get('pods', 'defaults');
    assert.deepEqual(
      pod?.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller]),
      [['GameServer', scheduled?.metadata.uid, true]],
    );
    await custom.deleteNamespacedCustomObject({ ...gs(ns), name: 'defaults' });
    await until(() => !cluster.objects.get('gameservers', 'defaults'), 'deleted');
  });
});
