import { fileURLToPath } from 'node:url';
import { coalesce, type KubeObject, type RenderedChart, renderChart } from './chart.ts';

// The chart's value sets the tests render: the least an operator must give, and the variants that switch on each
// optional part. The release is `canopy` in `games` unless a variant says otherwise.

export const CHART_DIR = fileURLToPath(new URL('../../../../../deploy/helm/canopy', import.meta.url));

/** What an operator must set (values.yaml's REQUIRED), and nothing else. */
export const REQUIRED_VALUES = {
  image: { repository: 'registry.example.com/canopy' },
  config: { discordClientId: '123456789012345678', publicIp: 'play.example.com' },
  secrets: {
    databaseUrl: 'postgres://canopy:secret@postgres.db:5432/canopy',
    sessionSecret: 's'.repeat(40),
    controlKey: 'k'.repeat(40),
    s3AccessKeyId: 'AKIAEXAMPLE',
    s3SecretAccessKey: 'aws-secret',
  },
  backups: { s3: { bucket: 'canopy-backups', region: 'eu-west-1' } },
};

export interface Variant {
  label: string;
  values: Record<string, unknown>;
  release?: { name: string; namespace: string };
}

const withRequired = (values: Record<string, unknown>) => coalesce(REQUIRED_VALUES, values) as Record<string, unknown>;

export const VARIANTS: Variant[] = [
  { label: 'defaults', values: REQUIRED_VALUES },
  {
    label: 'ingress with TLS, 3 replicas',
    release: { name: 'prod', namespace: 'canopy-prod' },
    values: withRequired({
      api: { replicas: 3 },
      ingress: {
        enabled: true,
        className: 'nginx',
        host: 'panel.example.com',
        annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' },
        tls: { enabled: true },
      },
      loginHost: { name: 'login.example.com', tls: { secretName: 'login-example-com' } },
    }),
  },
  {
    label: 'existing secret',
    values: {
      ...withRequired({}),
      secrets: { existingSecret: 'canopy-operator-secrets' },
    },
  },
  {
    label: 'metrics with a ServiceMonitor',
    values: withRequired({
      metrics: { enabled: true, serviceMonitor: { enabled: true, labels: { release: 'kube-prometheus-stack' } } },
      secrets: { metricsToken: 'metrics-token-0123456789' },
    }),
  },
  {
    label: 'ACME login host, split load balancers, engines apart, items volume',
    values: withRequired({
      loginHost: { name: 'login.example.com', acme: { enabled: true, email: 'ops@example.com' } },
      gateway: { service: { splitProtocols: true, httpsPort: 8443, loadBalancerIP: '203.0.113.7' } },
      engines: { namespace: 'canopy-engines', storageClass: 'fast-ssd' },
      items: { enabled: true },
      api: { podDisruptionBudget: { minAvailable: 1 }, tolerations: [{ key: 'game', operator: 'Exists' }] },
      config: { superAdmins: ['111111111111111111', '222222222222222222'], extraEnv: { CANOPY_PAID_STORAGE_MB: 2048 } },
    }),
  },
  {
    label: 'no replica kept through drains',
    values: withRequired({ api: { podDisruptionBudget: { minAvailable: 0 } } }),
  },
];

export const render = (v: Pick<Variant, 'values' | 'release'>): RenderedChart =>
  renderChart(CHART_DIR, { values: v.values, release: v.release ?? { name: 'canopy', namespace: 'games' } });

/** The one object of this kind (and name suffix); fails when there is not exactly one. */
export function one(objects: KubeObject[], kind: string, nameSuffix = ''): KubeObject {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name.endsWith(nameSuffix));
  if (found.length !== 1) throw new Error(`expected one ${kind} *${nameSuffix}, found ${found.length}`);
  return found[0] as KubeObject;
}
