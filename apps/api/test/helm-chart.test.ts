import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import type { IContainer, IService } from 'kubernetes-models/v1';
import type { KubeObject } from './support/helm/chart.ts';
import { manifestProblems } from './support/helm/validate.ts';
import { one, REQUIRED_VALUES, render, VARIANTS } from './support/helm/variants.ts';

// deploy/helm/canopy rendered without Helm (support/helm, ADR 0048) for each value set, every manifest checked
// against Kubernetes' published schemas, and the invariants an operator relies on asserted on what was rendered.

const rendered = VARIANTS.map((v) => ({ ...v, ...render(v) }));
const byLabel = (label: string) => rendered.find((r) => r.label === label) as (typeof rendered)[number];
const deployment = (objects: KubeObject[], suffix: string) =>
  one(objects, 'Deployment', suffix) as unknown as IDeployment;
const container = (d: IDeployment) => d.spec?.template.spec?.containers[0] as IContainer;

describe('Helm chart deploy/helm/canopy', () => {
  it('renders every variant into manifests that pass their Kubernetes schema, without an unknown field', () => {
    for (const r of rendered) {
      assert.ok(r.objects.length >= 10, `${r.label}: ${r.objects.length} objects`);
      for (const object of r.objects)
        assert.deepEqual(manifestProblems(object), [], `${r.label}: ${object.kind} ${object.metadata.name}`);
      const names = r.objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
      assert.equal(new Set(names).size, names.length, `${r.label}: an object is rendered twice`);
    }
  });

  it('checks what it renders: a wrong type, a misspelt field and an unquoted "off" are refused', () => {
    const api = structuredClone(one(byLabel('defaults').objects, 'Deployment', '-api')) as unknown as IDeployment;
    const c = container(api) as IContainer & Record<string, unknown>;
    c.readinessprobe = c.readinessProbe;
    assert.deepEqual(manifestProblems(api as unknown as KubeObject), [
      'unknown field spec.template.spec.containers[0].readinessprobe',
    ]);
    (c.ports as { containerPort: unknown }[])[0] = { containerPort: '8080' };
    assert.match(manifestProblems(api as unknown as KubeObject).join(), /containerPort/);
    const config = structuredClone(one(byLabel('defaults').objects, 'ConfigMap', '-api'));
    (config.data as Record<string, unknown>).CANOPY_GATEWAY = false;
    assert.match(manifestProblems(config).join(), /\/data\/CANOPY_GATEWAY/);
  });

  it('runs the api as the image user, probed on /readyz and /healthz, draining before SIGTERM, the gateway off', () => {
    for (const r of rendered) {
      const api = deployment(r.objects, '-api');
      const replicas = (r.values.api as { replicas?: number } | undefined)?.replicas ?? 2;
      assert.equal(api.spec?.replicas, replicas, r.label);
      assert.deepEqual(api.spec?.strategy?.rollingUpdate, { maxSurge: 1, maxUnavailable: 0 });
      const pod = api.spec?.template.spec;
      assert.deepEqual(
        [pod?.securityContext?.runAsNonRoot, pod?.securityContext?.runAsUser, pod?.securityContext?.runAsGroup],
        [true, 1000, 1000],
      );
      const c = container(api);
      assert.deepEqual(c.command, ['node', 'apps/api/src/main.ts']);
      assert.equal(c.securityContext?.readOnlyRootFilesystem, true);
      assert.equal(c.securityContext?.allowPrivilegeEscalation, false);
      assert.equal(c.readinessProbe?.httpGet?.path, '/readyz');
      assert.equal(c.livenessProbe?.httpGet?.path, '/healthz');
      assert.equal(c.startupProbe?.httpGet?.path, '/healthz');
      const sleep = c.lifecycle?.preStop?.sleep?.seconds ?? 0;
      const grace = pod?.terminationGracePeriodSeconds ?? 30;
      assert.ok(
        sleep > 0 && grace >= 30 && grace <= 40 && sleep < grace - 20,
        `${r.label}: sleep ${sleep}, grace ${grace}`,
      );
      assert.ok(c.resources?.requests?.memory && c.resources.limits?.memory, 'memory request and limit');
      const config = one(r.objects, 'ConfigMap', '-api').data as Record<string, string>;
      assert.equal(config.CANOPY_GATEWAY, 'off');
      assert.equal(config.CANOPY_RUNTIME, 'kubernetes');
      // The data directory is the pod's own and writable (everything else of the root file system is read-only), and
      // lies inside the volume, not at its root: the api chmods it 0700, which only its owner may, and a volume's
      // root belongs to root.
      const mounts = Object.fromEntries((c.volumeMounts ?? []).map((m) => [m.mountPath, m.name]));
      assert.equal(mounts['/data'], 'data');
      assert.match(config.CANOPY_DATA_DIR ?? '', /^\/data\/[^/]+$/);
      assert.ok(pod?.volumes?.find((v) => v.name === 'data')?.emptyDir, 'the data directory is an emptyDir');
    }
  });

  it('keeps at most one api replica away at a time (PodDisruptionBudget)', () => {
    const pdb = one(byLabel('defaults').objects, 'PodDisruptionBudget').spec as Record<string, unknown>;
    assert.equal(pdb.maxUnavailable, 1);
    assert.equal(pdb.minAvailable, undefined);
    const other = one(
      byLabel('ACME login host, split load balancers, engines apart, items volume').objects,
      'PodDisruptionBudget',
    );
    assert.deepEqual([other.spec && (other.spec as Record<string, unknown>).minAvailable], [1]);
    // 0 is a setting, not "unset": it must not fall back to maxUnavailable.
    const zero = one(byLabel('no replica kept through drains').objects, 'PodDisruptionBudget');
    const spec = zero.spec as Record<string, unknown>;
    assert.deepEqual([spec.minAvailable, 'maxUnavailable' in spec], [0, false]);
  });

  it('publishes the gateway: UDP 17091 and HTTPS 443 on a load balancer that keeps client addresses', () => {
    const r = byLabel('defaults');
    const gateway = deployment(r.objects, '-gateway');
    assert.equal(gateway.spec?.replicas, 1);
    assert.equal(gateway.spec?.strategy?.type, 'Recreate');
    assert.deepEqual(container(gateway).command, ['node', 'apps/api/src/gateway/main.ts']);
    assert.equal(gateway.spec?.template.spec?.securityContext?.runAsUser, 1000);
    const service = one(r.objects, 'Service', '-gateway') as unknown as IService;
    assert.equal(service.spec?.type, 'LoadBalancer');
    assert.equal(service.spec?.externalTrafficPolicy, 'Local');
    const ports = (service.spec?.ports ?? []).map((p) => `${p.port}/${p.protocol}->${p.targetPort}`);
    assert.deepEqual(ports, ['17091/UDP->enet', '443/TCP->https']);
    const config = one(r.objects, 'ConfigMap', '-gateway').data as Record<string, string>;
    assert.equal(config.CANOPY_GATEWAY_UDP_PORT, '17091');
    // Its data directory (token key, ACME state) inside its volume, which outlives the pod.
    const data = gateway.spec?.template.spec?.volumes?.find((v) => v.name === 'data');
    assert.equal(
      data?.persistentVolumeClaim?.claimName,
      one(r.objects, 'PersistentVolumeClaim', '-gateway').metadata.name,
    );
    assert.ok(container(gateway).volumeMounts?.some((m) => m.name === 'data' && m.mountPath === '/data'));
    assert.match(config.CANOPY_DATA_DIR ?? '', /^\/data\/[^/]+$/);
    const named = Object.fromEntries((container(gateway).ports ?? []).map((p) => [p.name, p.containerPort]));
    assert.equal(String(named.https), config.CANOPY_GATEWAY_TLS_PORT);

    // Split: one Service per protocol, ACME's port 80 beside HTTPS, the login host naming the port players reach.
    const split = byLabel('ACME login host, split load balancers, engines apart, items volume');
    const udp = one(split.objects, 'Service', '-gateway-udp') as unknown as IService;
    const tcp = one(split.objects, 'Service', '-gateway-tcp') as unknown as IService;
    assert.deepEqual(
      udp.spec?.ports?.map((p) => p.protocol),
      ['UDP'],
    );
    assert.deepEqual(
      tcp.spec?.ports?.map((p) => `${p.port}->${p.targetPort}`),
      ['8443->https', '80->acme'],
    );
    const splitConfig = one(split.objects, 'ConfigMap', '-gateway').data as Record<string, string>;
    assert.equal(splitConfig.CANOPY_LOGIN_HOST, 'login.example.com:8443');
    assert.equal(splitConfig.CANOPY_LOGIN_ACME, 'on');
  });

  it('mounts the login certificate Secret where CANOPY_LOGIN_TLS_CERT and _KEY point', () => {
    const r = byLabel('ingress with TLS, 3 replicas');
    const gateway = deployment(r.objects, '-gateway');
    const mount = container(gateway).volumeMounts?.find((m) => m.name === 'login-tls');
    const volume = gateway.spec?.template.spec?.volumes?.find((v) => v.name === 'login-tls');
    assert.equal(volume?.secret?.secretName, 'login-example-com');
    const config = one(r.objects, 'ConfigMap', '-gateway').data as Record<string, string>;
    assert.equal(config.CANOPY_LOGIN_TLS_CERT, `${mount?.mountPath}/tls.crt`);
    assert.equal(config.CANOPY_LOGIN_TLS_KEY, `${mount?.mountPath}/tls.key`);
    assert.equal(mount?.readOnly, true);
  });

  it('routes the panel host through the Ingress with its TLS Secret, and nothing of the gateway', () => {
    const r = byLabel('ingress with TLS, 3 replicas');
    const ingress = one(r.objects, 'Ingress').spec as {
      ingressClassName: string;
      tls: { hosts: string[]; secretName: string }[];
      rules: { host: string; http: { paths: { backend: { service: { name: string } } }[] } }[];
    };
    assert.equal(ingress.ingressClassName, 'nginx');
    assert.deepEqual(ingress.tls, [{ hosts: ['panel.example.com'], secretName: 'prod-canopy-panel-tls' }]);
    assert.deepEqual(
      ingress.rules.map((rule) => [rule.host, rule.http.paths.map((p) => p.backend.service.name)]),
      [['panel.example.com', ['prod-canopy-api']]],
    );
    assert.equal(
      (one(r.objects, 'ConfigMap', '-api').data as Record<string, string>).CANOPY_PUBLIC_URL,
      'https://panel.example.com',
    );
    assert.equal(byLabel('defaults').objects.filter((o) => o.kind === 'Ingress').length, 0);
  });

  it('makes no Secret with existingSecret, and reads every secret from the one named', () => {
    const r = byLabel('existing secret');
    assert.equal(r.objects.filter((o) => o.kind === 'Secret').length, 0);
    for (const suffix of ['-api', '-gateway']) {
      const refs = (container(deployment(r.objects, suffix)).env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name);
      assert.ok(refs.length > 0);
      assert.deepEqual(new Set(refs), new Set(['canopy-operator-secrets']), suffix);
    }
    const secret = one(byLabel('defaults').objects, 'Secret').data as Record<string, string>;
    assert.equal(Buffer.from(secret.DATABASE_URL as string, 'base64').toString(), REQUIRED_VALUES.secrets.databaseUrl);
  });

  it('serves metrics inside the cluster only, scraped with the token by a ServiceMonitor', () => {
    const r = byLabel('metrics with a ServiceMonitor');
    const monitor = one(r.objects, 'ServiceMonitor').spec as {
      endpoints: { port: string; authorization?: { credentials: { name: string; key: string } } }[];
    };
    assert.deepEqual(
      monitor.endpoints.map((e) => [e.port, e.authorization?.credentials]),
      [['metrics', { name: 'canopy', key: 'CANOPY_METRICS_TOKEN' }]],
    );
    const metricsService = one(r.objects, 'Service', '-gateway-metrics') as unknown as IService;
    assert.equal(metricsService.spec?.type, 'ClusterIP');
    const publicPorts = (one(r.objects, 'Service', '-gateway') as unknown as IService).spec?.ports ?? [];
    assert.ok(!publicPorts.some((p) => p.name === 'metrics'), 'the public gateway Service publishes no metrics');
    for (const suffix of ['-api', '-gateway'])
      assert.equal((one(r.objects, 'ConfigMap', suffix).data as Record<string, string>).CANOPY_METRICS_PORT, '9464');
    assert.equal(byLabel('defaults').objects.filter((o) => o.kind === 'ServiceMonitor').length, 0);
  });

  it('binds the Role in the engines namespace to the api ServiceAccount, and labels nothing as the driver does', () => {
    const r = byLabel('ACME login host, split load balancers, engines apart, items volume');
    const role = one(r.objects, 'Role') as unknown as IRole;
    const binding = one(r.objects, 'RoleBinding') as unknown as {
      metadata: { namespace: string };
      subjects: { name: string; namespace: string }[];
    };
    assert.equal(role.metadata?.namespace, 'canopy-engines');
    assert.equal(binding.metadata.namespace, 'canopy-engines');
    const account = one(r.objects, 'ServiceAccount');
    assert.deepEqual(
      binding.subjects.map((s) => [s.name, s.namespace]),
      [[account.metadata.name, 'games']],
    );
    assert.equal(deployment(r.objects, '-api').spec?.template.spec?.serviceAccountName, account.metadata.name);
    assert.equal(
      (one(r.objects, 'ConfigMap', '-api').data as Record<string, string>).CANOPY_K8S_NAMESPACE,
      'canopy-engines',
    );
    // The driver's informers select app.kubernetes.io/managed-by=canopy: the chart's own pods must not match.
    for (const x of rendered)
      for (const o of x.objects) assert.equal(o.metadata.labels?.['app.kubernetes.io/managed-by'], 'Helm');
  });

  it('rolls the pods when their configuration changes (checksum annotations)', () => {
    const annotations = (logLevel: string) => {
      const { objects } = render({ values: { ...REQUIRED_VALUES, config: { ...REQUIRED_VALUES.config, logLevel } } });
      return deployment(objects, '-api').spec?.template.metadata?.annotations ?? {};
    };
    const [info, debug] = [annotations('info'), annotations('debug')];
    assert.match(info['checksum/config'] ?? '', /^[0-9a-f]{64}$/);
    assert.notEqual(info['checksum/config'], debug['checksum/config']);
    assert.equal(info['checksum/secret'], debug['checksum/secret']);
  });

  it('prints NOTES that name the Services players reach, no other, and warn about a missing login host', () => {
    for (const r of rendered) {
      const named = /get svc ([^\n]+)/.exec(r.notes)?.[1]?.trim().split(/\s+/) ?? [];
      // Every Service publishing the ENet front or the login host's HTTPS, and not the gateway's metrics one.
      const facing = r.objects
        .filter((o) => o.kind === 'Service')
        .filter((o) => (o as unknown as IService).spec?.ports?.some((p) => p.name === 'enet' || p.name === 'https'))
        .map((o) => o.metadata.name);
      assert.deepEqual(named.sort(), facing.sort(), r.label);
    }
    assert.equal(one(byLabel('metrics with a ServiceMonitor').objects, 'Service', '-gateway-metrics').kind, 'Service');
    assert.match(byLabel('defaults').notes, /WARNING: no loginHost\.name/);
    assert.doesNotMatch(byLabel('ingress with TLS, 3 replicas').notes, /WARNING/);
    assert.match(byLabel('ingress with TLS, 3 replicas').notes, /https:\/\/panel\.example\.com/);
  });
});

describe('Helm chart: the Role against the kubernetes driver', () => {
  // The driver's calls, read from its source: the API clients are made only in kube.ts and the informers in watch.ts.
  function driverCalls(): Set<string> {
    const dir = new URL('../src/runtime/kubernetes/', import.meta.url);
    const kube = readFileSync(new URL('kube.ts', dir), 'utf8');
    const watch = readFileSync(new URL('watch.ts', dir), 'utf8');
    const resources: Record<string, string> = {
      Pod: '/pods',
      PodLog: '/pods/log',
      Secret: '/secrets',
      PersistentVolumeClaim: '/persistentvolumeclaims',
      CustomObject: 'agones.dev/gameservers',
    };
    const verbs: Record<string, string> = { create: 'create', delete: 'delete', list: 'list', read: 'get' };
    const calls = new Set<string>();
    for (const [, verb, kind] of kube.matchAll(/this\.(?:core|custom)\.(\w+?)Namespaced(\w+)\(/g)) {
      const resource = resources[kind as string];
      assert.ok(resource && verbs[verb as string], `an unknown call in kube.ts: ${verb}Namespaced${kind}`);
      calls.add(`${resource}:${verbs[verb as string]}`);
    }
    const informers = [...watch.matchAll(/makeInformer<\w+>\(\s*kc,\s*`([^`]+)`/g)].map((m) => m[1] ?? '');
    assert.equal(informers.length, 2, 'the informers of watch.ts');
    for (const path of informers) {
      const resource = path.endsWith('/pods')
        ? '/pods'
        : path.includes('AGONES_GROUP')
          ? 'agones.dev/gameservers'
          : path;
      calls.add(`${resource}:list`).add(`${resource}:watch`);
    }
    return calls;
  }

  it('grants exactly the verbs the driver uses, on exactly the resources it touches', () => {
    const calls = driverCalls();
    assert.ok(calls.has('/pods/log:get') && calls.has('agones.dev/gameservers:create'), [...calls].join());
    const role = one(byLabel('defaults').objects, 'Role') as unknown as IRole;
    const granted = new Set<string>();
    for (const rule of role.rules ?? [])
      for (const group of rule.apiGroups ?? [])
        for (const resource of rule.resources ?? [])
          for (const verb of rule.verbs) granted.add(`${group}/${resource}:${verb}`);
    assert.deepEqual([...granted].sort(), [...calls].sort());
  });
});
