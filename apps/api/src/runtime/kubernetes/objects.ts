import { engineEnv } from '@canopy/contract/engine-constants';
import { ENGINE_NODE_ENV, ENGINE_NODE_FLAGS } from '@canopy/engine';
import type { V1Container, V1EnvVar, V1PersistentVolumeClaim, V1Pod, V1Secret } from '@kubernetes/client-node';
import { memoryFlags } from '../local/memory.ts';
import type { HostedServerSpec } from '../types.ts';
import { AGONES_GROUP, AGONES_VERSION, type GameServer } from './agones.ts';
import { objectNames, SERVER_ID_ANNOTATION, serverLabels } from './names.ts';
import type { ClusterSettings } from './options.ts';

// The manifests of one hosted server: its GameServer (the engine, under Agones), the Secret holding its control
// secret, the PersistentVolumeClaim holding its data, and the maintenance pod that serves its files while it is
// offline (an engine in files-only mode on the same volume).

/** Where the engine's image keeps the repository (its WORKDIR) and what the container runs. */
export const ENGINE_ENTRY_IN_IMAGE = 'packages/engine/src/main.ts';
/** Where the server's volume is mounted in the engine's container. */
export const DATA_MOUNT = '/data';
/**
 * The engine's data directory: one it makes and owns on the volume. A fresh volume's root belongs to root (fsGroup
 * only changes its group), so a non-root engine could not make it private (0700) and would refuse to start.
 */
export const DATA_DIR = `${DATA_MOUNT}/server`;
/** The engine runs as the image's `node` user, never as root; the volume's group is its group. */
const POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  // Only a volume whose root is not already the group's is walked (every mount otherwise, slowing each start).
  fsGroupChangePolicy: 'OnRootMismatch',
};
/** The key of the control secret in the server's Secret. */
export const SECRET_KEY = 'secret';
/** The GameServer's port for players (Agones maps it to a host port: status.ports). */
export const GAME_PORT_NAME = 'game';
export const ENGINE_CONTAINER = 'engine';

/** What every server's objects share (config/runtime.ts): the cluster's settings but its connection. */
export type ObjectSettings = Omit<ClusterSettings, 'kubeConfig'> & {
  /** The pod's grace after SIGTERM before the kubelet kills the engine (it saves and exits well before). */
  stopGraceSeconds: number;
};

/** The settings of every server's objects, from the driver's cluster settings and the engine's stop timeouts. */
export const objectSettings = (
  { kubeConfig: _, ...cluster }: ClusterSettings,
  timeouts: { stopMs: number; killMs: number },
): ObjectSettings => ({ ...cluster, stopGraceSeconds: Math.ceil((timeouts.stopMs + timeouts.killMs) / 1000) });

const metadata = (s: ObjectSettings, name: string, spec: HostedServerSpec, role: 'game' | 'files' | 'data') => ({
  name,
  namespace: s.namespace,
  labels: serverLabels(spec.id, spec.ownerId, role),
  annotations: { [SERVER_ID_ANNOTATION]: spec.id },
});

/** The engine's container: the flags of a local engine, its secret from the Secret, its data on the volume. */
function engineContainer(
  s: ObjectSettings,
  spec: HostedServerSpec,
  engine: EngineRun,
  mode: 'game' | 'files',
): V1Container {
  const { memoryMB } = engine;
  const secretEnv: V1EnvVar = {
    name: engineEnv.secret,
    valueFrom: { secretKeyRef: { name: objectNames(spec.id).secret, key: SECRET_KEY } },
  };
  // The control API listens on the pod's network, where the api replicas reach it (behind the bearer secret).
  const args = ['--data-dir', DATA_DIR, '--control-host', '0.0.0.0', '--control-exposed'];
  args.push('--control-port', String(s.controlPort));
  if (mode === 'game') args.push('--game-port', String(s.gamePort));
  else args.push('--files-only');
  const memory = memoryMB === null ? undefined : `${memoryMB}Mi`;
  return {
    name: ENGINE_CONTAINER,
    image: s.image,
    workingDir: s.workDir,
    // The same Node flags as a local engine (packages/engine/src/node-flags.ts) and the plan's heap limit.
    command: ['node', ...ENGINE_NODE_FLAGS, ...memoryFlags(memoryMB), ENGINE_ENTRY_IN_IMAGE],
    args,
    env: [
      ...Object.entries(ENGINE_NODE_ENV).map(([name, value]) => ({ name, value })),
      secretEnv,
      ...Object.entries(engine.env).map(([name, value]) => ({ name, value })),
    ],
    ports: [
      { name: 'control', containerPort: s.controlPort, protocol: 'TCP' },
      ...(mode === 'game' ? [{ name: GAME_PORT_NAME, containerPort: s.gamePort, protocol: 'UDP' }] : []),
    ],
    // The plan's ceiling is the container's memory limit (the kubelet ends an engine over it: OOMKilled) and its
    // request, so that a node never holds more engines than their ceilings fit.
    // A files-only engine gets a small fixed share: a namespace with a memory quota refuses pods without limits, and
    // one without requests is evicted first.
    resources: memory
      ? { requests: { memory }, limits: { memory } }
      : { requests: { memory: '64Mi', cpu: '50m' }, limits: { memory: '256Mi' } },
    volumeMounts: [{ name: 'data', mountPath: DATA_MOUNT }],
  };
}

const dataVolume = (spec: HostedServerSpec) => ({
  name: 'data',
  persistentVolumeClaim: { claimName: objectNames(spec.id).volumeClaim },
});

/** How one engine runs: its memory ceiling (MB, null for none) and environment besides its secret. */
export interface EngineRun {
  memoryMB: number | null;
  /** The game CDN and the item database by version; none for a files-only engine (it serves files only). */
  env: Record<string, string>;
}

/** The server's GameServer: Agones allocates a host port for the game and runs the engine's pod. */
export function gameServerManifest(s: ObjectSettings, spec: HostedServerSpec, engine: EngineRun): GameServer {
  const meta = metadata(s, objectNames(spec.id).gameServer, spec, 'game');
  return {
    apiVersion: `${AGONES_GROUP}/${AGONES_VERSION}`,
    kind: 'GameServer',
    metadata: meta,
    spec: {
      container: ENGINE_CONTAINER,
      ports: [{ name: GAME_PORT_NAME, portPolicy: 'Dynamic', containerPort: s.gamePort, protocol: 'UDP' }],
      // The engine pings the SDK while its loop runs; three missed pings make the GameServer Unhealthy, which the
      // driver treats as a crash.
      // The first check comes after 30 s: an engine's cold start in a new pod (Node, its modules, the world) must fit.
      health: { disabled: false, initialDelaySeconds: 30, periodSeconds: 5, failureThreshold: 3 },
      template: {
        metadata: { labels: meta.labels, annotations: meta.annotations },
        spec: {
          containers: [engineContainer(s, spec, engine, 'game')],
          volumes: [dataVolume(spec)],
          terminationGracePeriodSeconds: s.stopGraceSeconds,
          // An engine that ended is a crash the driver handles (report, loop guard), never restarted in place: the
          // default only on Agones with native sidecars.
          restartPolicy: 'Never',
          securityContext: POD_SECURITY,
        },
      },
    },
  };
}

/** The maintenance pod: the server's engine in files-only mode on its volume, while the server is offline. */
export function filesPodManifest(s: ObjectSettings, spec: HostedServerSpec): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(s, objectNames(spec.id).filesPod, spec, 'files'),
    spec: {
      containers: [engineContainer(s, spec, { memoryMB: null, env: {} }, 'files')],
      volumes: [dataVolume(spec)],
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: s.stopGraceSeconds,
      securityContext: POD_SECURITY,
    },
  };
}

/** The Secret holding the server's control secret (the engine reads it from its environment). */
export function secretManifest(s: ObjectSettings, spec: HostedServerSpec): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadata(s, objectNames(spec.id).secret, spec, 'data'),
    type: 'Opaque',
    stringData: { [SECRET_KEY]: spec.secret },
  };
}

/** The server's volume (one node mounts it at a time: the GameServer's pod or the maintenance pod). */
export function volumeClaimManifest(s: ObjectSettings, spec: HostedServerSpec): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: metadata(s, objectNames(spec.id).volumeClaim, spec, 'data'),
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: s.volumeSize } },
      ...(s.storageClass ? { storageClassName: s.storageClass } : {}),
    },
  };
}
