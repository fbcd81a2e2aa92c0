import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from './chart.ts';

// Checks a rendered manifest against the published schemas: Kubernetes' OpenAPI (kubernetes-models) and
// prometheus-operator's CRD (@kubernetes-models/prometheus-operator), through their compiled validators. Those let
// unknown fields pass, as the API server's default does with a warning; a misspelt field would then be dropped
// without a word, so every field the validator never read is reported as unknown too (strict field validation).

type Validator = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; keyword: string; params: unknown; message?: string }[] | null;
};

const SCHEMAS: Record<string, [pkg: string, schema: string]> = {
  'v1/ConfigMap': ['kubernetes-models', 'IoK8sApiCoreV1ConfigMap'],
  'v1/Secret': ['kubernetes-models', 'IoK8sApiCoreV1Secret'],
  'v1/Service': ['kubernetes-models', 'IoK8sApiCoreV1Service'],
  'v1/ServiceAccount': ['kubernetes-models', 'IoK8sApiCoreV1ServiceAccount'],
  'v1/PersistentVolumeClaim': ['kubernetes-models', 'IoK8sApiCoreV1PersistentVolumeClaim'],
  'apps/v1/Deployment': ['kubernetes-models', 'IoK8sApiAppsV1Deployment'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models', 'IoK8sApiPolicyV1PodDisruptionBudget'],
  'rbac.authorization.k8s.io/v1/Role': ['kubernetes-models', 'IoK8sApiRbacV1Role'],
  'rbac.authorization.k8s.io/v1/RoleBinding': ['kubernetes-models', 'IoK8sApiRbacV1RoleBinding'],
  'networking.k8s.io/v1/Ingress': ['kubernetes-models', 'IoK8sApiNetworkingV1Ingress'],
  'networking.k8s.io/v1/NetworkPolicy': ['kubernetes-models', 'IoK8sApiNetworkingV1NetworkPolicy'],
  'monitoring.coreos.com/v1/ServiceMonitor': [
    '@kubernetes-models/prometheus-operator',
    'MonitoringCoreosComV1ServiceMonitor',
  ],
};

const require = createRequire(import.meta.url);

/** The compiled validator of a package's schema, loaded by path (the packages do not export their _schemas). */
function validator(pkg: string, schema: string): Validator {
  const root = dirname(fileURLToPath(import.meta.resolve(pkg)));
  return (require(join(root, '_schemas', `${schema}.js`)) as { validate: Validator }).validate;
}

/** Wraps `value` so that every own field the validator reads is struck off `unread`. */
function tracked(value: unknown, path: string, unread: Set<string>): unknown {
  if (!value || typeof value !== 'object') return value;
  for (const key of Object.keys(value)) unread.add(Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
  return new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || !Object.hasOwn(target, key)) return v;
      const at = Array.isArray(target) ? `${path}[${key}]` : `${path}.${key}`;
      unread.delete(at);
      return tracked(v, at, unread);
    },
  });
}

/** What is wrong with a manifest by the schema of its kind (an empty list: nothing); a kind without one is an error. */
export function manifestProblems(object: KubeObject): string[] {
  const id = `${object.apiVersion}/${object.kind}`;
  const entry = SCHEMAS[id];
  if (!entry) return [`no schema known for ${id}`];
  const validate = validator(...entry);
  const unread = new Set<string>();
  if (!validate(tracked(object, '', unread)))
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? `fails ${e.keyword} ${JSON.stringify(e.params)}`}`,
    );
  return [...unread].map((field) => `unknown field ${field.slice(1)}`);
}
