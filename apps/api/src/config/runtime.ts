import { z } from 'zod';

// Where hosted servers run (CANOPY_RUNTIME, ADR 0043): engine processes on this machine (local, the default) or
// Agones GameServers in a Kubernetes cluster. What config.ts reads for it and the checks across those variables.

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

// A Kubernetes resource quantity of bytes, as a PersistentVolumeClaim takes it (1Gi, 500Mi, 2G).
const QUANTITY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

/** The ports Agones' SDK sidecar listens on inside every GameServer pod (health 8080, SDK gRPC 9357, HTTP 9358). */
const AGONES_SIDECAR_PORTS = [8080, 9357, 9358];

/** The variables, merged into config.ts's environment schema. */
export const runtimeEnv = {
  CANOPY_RUNTIME: z.preprocess(emptyAsUndefined, z.enum(['local', 'kubernetes']).default('local')),
  // Unset: the kubeconfig context's namespace (in a pod: its own), else "default".
  CANOPY_K8S_NAMESPACE: optional(z.string().regex(DNS_LABEL, 'must be a namespace name (a DNS-1123 label)')),
  CANOPY_K8S_ENGINE_IMAGE: optional(z.string().trim().min(1).max(500)),
  CANOPY_K8S_VOLUME_SIZE: z.preprocess(
    emptyAsUndefined,
    z.string().regex(QUANTITY, 'must be a Kubernetes quantity like 1Gi or 500Mi').default('1Gi'),
  ),
  CANOPY_K8S_STORAGE_CLASS: optional(z.string().regex(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, 'must be a name')),
  // Not 8080: Agones' SDK sidecar serves its health endpoint there, in the same pod network (nor its 9357/9358).
  CANOPY_K8S_CONTROL_PORT: port(8081),
  // The engine image's working directory, where the repository is (the entry path is relative to it).
  CANOPY_K8S_ENGINE_WORKDIR: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\/[^\0]{0,500}$/, 'must be an absolute path')
      .default('/app'),
  ),
  CANOPY_K8S_GAME_PORT: port(7777),
  // Scheduling and an image pull come before the engine's own start, so this is longer than a local start.
  CANOPY_K8S_START_TIMEOUT_MS: z.coerce.number().int().min(1000).default(180_000),
  // The host key engines' control secrets derive from (ADR 0011); unset: <data-dir>/control-key, made once.
  CANOPY_CONTROL_KEY: optional(z.string().trim().min(32, 'must be at least 32 characters')),
};

type RuntimeEnv = {
  CANOPY_RUNTIME: 'local' | 'kubernetes';
  CANOPY_K8S_NAMESPACE?: string;
  CANOPY_K8S_ENGINE_IMAGE?: string;
  CANOPY_K8S_VOLUME_SIZE: string;
  CANOPY_K8S_STORAGE_CLASS?: string;
  CANOPY_K8S_CONTROL_PORT: number;
  CANOPY_K8S_ENGINE_WORKDIR: string;
  CANOPY_K8S_GAME_PORT: number;
  CANOPY_K8S_START_TIMEOUT_MS: number;
  CANOPY_CONTROL_KEY?: string;
};

/** What is wrong across the variables: the kubernetes runtime needs an engine image, a control key shared by every
 * replica, and two distinct ports. */
export function runtimeIssues(env: RuntimeEnv): { path: string[]; message: string }[] {
  if (env.CANOPY_RUNTIME !== 'kubernetes') return [];
  const issues: { path: string[]; message: string }[] = [];
  if (!env.CANOPY_K8S_ENGINE_IMAGE)
    issues.push({ path: ['CANOPY_K8S_ENGINE_IMAGE'], message: 'is required when CANOPY_RUNTIME=kubernetes' });
  // Every replica, and each api after a restart (a pod's data directory may not last), must derive the secrets the
  // engines in the cluster were started with.
  if (!env.CANOPY_CONTROL_KEY)
    issues.push({ path: ['CANOPY_CONTROL_KEY'], message: 'is required when CANOPY_RUNTIME=kubernetes' });
  if (env.CANOPY_K8S_CONTROL_PORT === env.CANOPY_K8S_GAME_PORT)
    issues.push({ path: ['CANOPY_K8S_GAME_PORT'], message: 'must differ from CANOPY_K8S_CONTROL_PORT' });
  // Ports Agones' SDK sidecar takes in every GameServer pod: its health endpoint, its gRPC and HTTP SDK servers.
  for (const name of ['CANOPY_K8S_CONTROL_PORT', 'CANOPY_K8S_GAME_PORT'] as const)
    if (AGONES_SIDECAR_PORTS.includes(env[name]))
      issues.push({
        path: [name],
        message: `must not be ${AGONES_SIDECAR_PORTS.join(', ')} (Agones' sidecar uses them)`,
      });
  return issues;
}

/** Engines in a Kubernetes cluster: what every server's objects are made with (runtime/kubernetes/objects.ts). */
export interface KubernetesRuntimeConfig {
  kind: 'kubernetes';
  /** Unset: the kubeconfig context's namespace, else "default". */
  namespace?: string;
  image: string;
  /** The image's working directory (the repository): CANOPY_K8S_ENGINE_WORKDIR. */
  workDir: string;
  volumeSize: string;
  storageClass?: string;
  controlPort: number;
  gamePort: number;
  startTimeoutMs: number;
}

/** Where hosted servers run. */
export type RuntimeConfig = { kind: 'local' } | KubernetesRuntimeConfig;

export const runtimeOf = (env: RuntimeEnv): RuntimeConfig =>
  env.CANOPY_RUNTIME === 'local'
    ? { kind: 'local' }
    : {
        kind: 'kubernetes',
        namespace: env.CANOPY_K8S_NAMESPACE,
        image: env.CANOPY_K8S_ENGINE_IMAGE ?? '',
        workDir: env.CANOPY_K8S_ENGINE_WORKDIR,
        volumeSize: env.CANOPY_K8S_VOLUME_SIZE,
        storageClass: env.CANOPY_K8S_STORAGE_CLASS,
        controlPort: env.CANOPY_K8S_CONTROL_PORT,
        gamePort: env.CANOPY_K8S_GAME_PORT,
        startTimeoutMs: env.CANOPY_K8S_START_TIMEOUT_MS,
      };
