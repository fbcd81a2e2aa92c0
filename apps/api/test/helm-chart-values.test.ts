import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { envSchema } from '../src/config/env-schema.ts';
import { loadConfig } from '../src/config.ts';
import { coalesce, type KubeObject } from './support/helm/chart.ts';
import { CHART_DIR, one, REQUIRED_VALUES, render, VARIANTS } from './support/helm/variants.ts';

// The chart's values against the api: every variable it sets is one the api reads, the environment each process gets
// passes the api's own checks at start, a missing required value stops the render with a message naming it, and
// every value is documented in values.yaml and README.md.

const rendered = VARIANTS.map((v) => ({ ...v, ...render(v) }));

/** A Secret an operator made for existingSecret: every key the chart may read. */
const OPERATOR_SECRET: Record<string, string> = {
  DATABASE_URL: 'postgres://canopy:op@postgres:5432/canopy',
  CANOPY_SESSION_SECRET: 'o'.repeat(32),
  CANOPY_CONTROL_KEY: 'c'.repeat(32),
  AWS_ACCESS_KEY_ID: 'AKIAOPERATOR',
  AWS_SECRET_ACCESS_KEY: 'operator-secret',
};

/** The environment the kubelet gives a Deployment's container: its ConfigMaps, literals and Secret keys. */
function containerEnv(objects: KubeObject[], suffix: string): Record<string, string> {
  const spec = (one(objects, 'Deployment', suffix) as unknown as IDeployment).spec?.template.spec;
  const c = spec?.containers[0];
  const made = objects.find((o) => o.kind === 'Secret')?.data as Record<string, string> | undefined;
  const secret = made
    ? Object.fromEntries(Object.entries(made).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]))
    : OPERATOR_SECRET;
  const env: Record<string, string> = {};
  for (const from of c?.envFrom ?? []) {
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef?.name);
    assert.ok(map, `ConfigMap ${from.configMapRef?.name} is rendered`);
    Object.assign(env, map.data);
  }
  for (const e of c?.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (!ref) env[e.name] = e.value ?? '';
    else if (secret[ref.key] !== undefined) env[e.name] = secret[ref.key] as string;
    else assert.ok(ref.optional, `${suffix}: ${e.name} needs the key ${ref.key}, which the Secret lacks`);
  }
  return env;
}

describe('Helm chart values against the api', () => {
  it('sets only variables the api reads (config/env-schema.ts)', () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const r of rendered)
      for (const suffix of ['-api', '-gateway'])
        for (const name of Object.keys(containerEnv(r.objects, suffix)))
          assert.ok(known.has(name), `${r.label} ${suffix}: ${name} is not in the api's environment schema`);
  });

  it("gives each process an environment that passes the api's checks at start", () => {
    for (const r of rendered) {
      const api = loadConfig(containerEnv(r.objects, '-api'));
      assert.equal(api.nodeEnv, 'production');
      assert.equal(api.gateway.enabled, false, 'the gateway runs apart');
      assert.equal(api.runtime.kind, 'kubernetes');
      assert.equal(api.backupStore.kind, 's3');
      assert.equal(api.dataDir, '/data/canopy');
      const ns = r.release?.namespace ?? 'games';
      assert.equal(api.internalUrl, `http://${r.release ? 'prod-canopy' : 'canopy'}-api.${ns}.svc:8080`);
      const gateway = loadConfig(containerEnv(r.objects, '-gateway'));
      assert.deepEqual([gateway.gateway.tlsPort, gateway.gateway.udpPort], [8443, 17091]);
      assert.equal(gateway.publicIp, 'play.example.com');
      assert.equal(Boolean(api.metrics), r.label.includes('metrics'), `${r.label}: metrics`);
      assert.equal(api.gateway.login?.name, gateway.gateway.login?.name, 'both name the same login host');
    }
    const acme = loadConfig(containerEnv(rendered[4]?.objects ?? [], '-gateway'));
    assert.equal(acme.gateway.login?.acme?.httpPort, 8080);
    assert.equal(acme.gateway.login?.port, 8443);
  });

  const without = (path: string) => {
    const values = structuredClone(REQUIRED_VALUES) as Record<string, unknown>;
    const keys = path.split('.');
    const last = keys.pop() as string;
    const parent = keys.reduce((o, k) => o[k] as Record<string, unknown>, values);
    delete parent[last];
    return values;
  };

  it('stops the render with a message naming each required value that is missing', () => {
    for (const path of [
      'image.repository',
      'config.discordClientId',
      'config.publicIp',
      'secrets.databaseUrl',
      'secrets.sessionSecret',
      'secrets.controlKey',
      'secrets.s3AccessKeyId',
      'secrets.s3SecretAccessKey',
      'backups.s3.bucket',
    ])
      assert.throws(
        () => render({ values: without(path) }),
        (e: Error) => e.message.includes(`${path} is required`),
        path,
      );
  });

  it('refuses settings the api or the cluster would refuse, naming what to change', () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ loginHost: { name: 'login.example.com' } }, /loginHost\.name needs a certificate/],
      [{ loginHost: { name: 'l.example.com', tls: { secretName: 's' }, acme: { enabled: true } } }, /not both/],
      [{ secrets: { sessionSecret: 'short' } }, /at least 32 characters/],
      [{ backups: { s3: { region: '' } } }, /backups\.s3\.region is required/],
      [{ ingress: { enabled: true } }, /ingress\.host is required/],
      [{ api: { preStopSleepSeconds: 40 } }, /preStopSleepSeconds must be shorter/],
      [{ metrics: { enabled: true, port: 8443 } }, /metrics\.port must differ/],
      [{ serviceAccount: { create: false } }, /serviceAccount\.name is required/],
    ];
    for (const [values, message] of refused)
      assert.throws(() => render({ values: coalesce(REQUIRED_VALUES, values) as never }), message, String(message));
    // An existingSecret needs none of the secret values.
    assert.doesNotThrow(() =>
      render({ values: { ...REQUIRED_VALUES, secrets: { existingSecret: 'mine' } } as Record<string, unknown> }),
    );
  });

  it('documents every value in values.yaml and in the README table', () => {
    const doc = parseDocument(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
    const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');
    const documented: string[] = [];
    // A key with a "# --" comment is a value; one without is a group, whose keys are values or groups in turn.
    const walk = (map: YAMLMap, prefix: string) =>
      map.items.forEach((pair, i) => {
        const key = `${prefix}${String((pair.key as { value: unknown }).value)}`;
        const comment = (pair.key as { commentBefore?: string }).commentBefore ?? (i === 0 ? map.commentBefore : '');
        if (comment?.includes('--')) documented.push(key);
        else if (isMap(pair.value)) walk(pair.value as YAMLMap, `${key}.`);
        else assert.fail(`values.yaml: ${key} has no "# --" comment`);
      });
    walk(doc.contents as YAMLMap, '');
    assert.ok(documented.length > 60, `${documented.length} values`);
    const rows = [...readme.matchAll(/^\| `([\w.]+)` +\|/gm)].map((m) => m[1]);
    assert.deepEqual(rows, documented, 'the README lists the values in values.yaml, in its order, and no other');
  });
});
