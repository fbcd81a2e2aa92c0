// Agones' GameServer controller and health controller for the stand-in's one node (pkg/gameservers in Agones):
// PortAllocation → Creating → Starting (its Pod created) → Scheduled (address and ports) → RequestReady (SDK) →
// Ready; a dead game container or a missing pod → Unhealthy; Shutdown → deleted; a deletion deletes the pod first
// and lets the GameServer go (its finalizer removed) once the pod is gone.
import { AGONES_VERSION, FINALIZER } from './agones-webhook.ts';
import type { Api } from './api.ts';
import { NODE_NAME } from './kubelet.ts';
import type { PortAllocator } from './ports.ts';
import { type KubeObject, resourceType } from './resources.ts';
import { SdkServer } from './sdk-server.ts';
import { StatusError } from './status.ts';
import type { StoreEvent } from './store.ts';
import { WorkQueue } from './work-queue.ts';

const gameservers = resourceType('agones.dev', 'gameservers') as NonNullable<ReturnType<typeof resourceType>>;
const pods = resourceType('', 'pods') as NonNullable<ReturnType<typeof resourceType>>;

interface GamePort {
  name?: string;
  portPolicy: string;
  container?: string;
  containerPort?: number;
  hostPort?: number;
  protocol: string;
}

/** States after the pod exists and before the end, in which a dead pod makes the GameServer Unhealthy. */
const WATCHED = new Set(['Starting', 'Scheduled', 'RequestReady', 'Ready', 'Allocated', 'Reserved']);

export class AgonesController {
  /** The SDK server of each GameServer, by namespace/name. */
  readonly sdks = new Map<string, { uid: string; server: SdkServer }>();
  private api: Api;
  private ports: PortAllocator;
  private queue: WorkQueue;
  private held = new Map<string, number[]>();

  constructor(api: Api, ports: PortAllocator) {
    this.api = api;
    this.ports = ports;
    this.queue = new WorkQueue((key) => this.reconcile(key));
  }

  onEvent(event: StoreEvent): void {
    const { namespace = '', name = '' } = event.object.metadata;
    if (event.resource === gameservers) {
      this.queue.add(`${namespace}/${name}`);
      const sdk = this.sdks.get(`${namespace}/${name}`);
      if (sdk && sdk.uid === event.object.metadata.uid && event.type !== 'DELETED') sdk.server.changed(event.object);
    }
    const owner = event.object.metadata.labels?.['agones.dev/gameserver'];
    if (event.resource === pods && owner) this.queue.add(`${namespace}/${owner}`);
  }

  stop(): void {
    this.queue.stop();
    for (const { server } of this.sdks.values()) server.close();
    this.sdks.clear();
  }

  private async reconcile(key: string): Promise<void> {
    const [namespace = '', name = ''] = key.split('/');
    const gs = this.api.store.get(gameservers, namespace, name);
    const sdk = this.sdks.get(key);
    if (sdk && sdk.uid !== gs?.metadata.uid) {
      sdk.server.close();
      this.sdks.delete(key);
      for (const port of this.held.get(sdk.uid) ?? []) this.ports.release(port);
      this.held.delete(sdk.uid);
    }
    if (!gs) return;
    const pod = this.api.store.get(pods, namespace, name);
    const ownPod = pod?.metadata.ownerReferences?.some((r) => r.uid === gs.metadata.uid) ? pod : undefined;

    if (gs.metadata.deletionTimestamp) {
      if (ownPod && !ownPod.metadata.deletionTimestamp) this.api.store.delete(pods, namespace, name);
      else if (!ownPod && gs.metadata.finalizers?.includes(FINALIZER))
        this.write(gs, (next) => {
          next.metadata.finalizers = next.metadata.finalizers?.filter((f) => f !== FINALIZER);
        });
      return;
    }
    const state: string = gs.status?.state ?? '';
    if (state === 'PortAllocation') return this.allocate(gs);
    if (state === 'Creating') return this.createPod(key, gs);
    if (state === 'Shutdown') {
      this.api.store.delete(gameservers, namespace, name);
      return;
    }
    if (!WATCHED.has(state)) return;
    if (!ownPod || unhealthy(ownPod, gs.spec.container)) return this.setState(gs, 'Unhealthy');
    if (state === 'Starting' && ownPod.spec.nodeName && ownPod.status?.podIP)
      return this.setState(gs, 'Scheduled', address(gs, ownPod));
    if (state === 'RequestReady' && gameContainerRunning(ownPod, gs.spec.container))
      return this.setState(gs, 'Ready', address(gs, ownPod));
  }

  private async allocate(gs: KubeObject): Promise<void> {
    const taken: number[] = [];
    const uid = gs.metadata.uid ?? '';
    for (const port of this.held.get(uid) ?? []) this.ports.release(port);
    for (const port of gs.spec.ports as GamePort[]) {
      if (port.portPolicy === 'Static' && port.hostPort) this.ports.hold(port.hostPort);
      if (port.portPolicy !== 'Dynamic' && port.portPolicy !== 'Passthrough') continue;
      port.hostPort = await this.ports.allocate(port.protocol);
      taken.push(port.hostPort);
      if (port.portPolicy === 'Passthrough') port.containerPort = port.hostPort;
    }
    this.held.set(uid, taken);
    this.write(gs, (next) => {
      next.spec.ports = gs.spec.ports;
      next.status.state = 'Creating';
    });
  }

  private async createPod(key: string, gs: KubeObject): Promise<void> {
    let sdk = this.sdks.get(key);
    if (!sdk) {
      sdk = { uid: gs.metadata.uid ?? '', server: new SdkServer(this.sdkHost(gs)) };
      this.sdks.set(key, sdk);
      await sdk.server.start(gs.spec.health ?? {});
    }
    try {
      this.api.create(pods, gs.metadata.namespace ?? '', gameServerPod(gs, sdk.server));
    } catch (error) {
      if (!(error instanceof StatusError)) throw error;
      if (error.status.reason !== 'AlreadyExists') {
        console.error(`k8s stand-in: the pod of GameServer ${key} was refused: ${error.message}`);
        return this.setState(gs, 'Error');
      }
    }
    this.setState(gs, 'Starting');
  }

  /** The SDK server's view of its GameServer: it reads and writes through the API, as the sidecar does. */
  private sdkHost(gs: KubeObject) {
    const { namespace = '', name = '', uid } = gs.metadata;
    const current = () => {
      const found = this.api.store.get(gameservers, namespace, name);
      return found?.metadata.uid === uid ? found : undefined;
    };
    return {
      current,
      update: (change: (gs: KubeObject) => void) => {
        const found = current();
        if (!found || found.metadata.deletionTimestamp) return;
        change(found);
        this.api.system(gameservers, found);
      },
    };
  }

  private setState(gs: KubeObject, state: string, extra: Record<string, unknown> = {}): void {
    this.write(gs, (next) => {
      next.status = { ...next.status, state, ...extra };
    });
  }

  /** Applies `change` to the newest version of the GameServer (the SDK may have written since `gs` was read). */
  private write(gs: KubeObject, change: (next: KubeObject) => void): void {
    const next = this.api.store.get(gameservers, gs.metadata.namespace ?? '', gs.metadata.name ?? '');
    if (next?.metadata.uid !== gs.metadata.uid || !next) return;
    change(next);
    this.api.system(gameservers, next);
  }
}

const gameContainer = (pod: KubeObject, name: string) =>
  (pod.status?.containerStatuses ?? []).find((c: { name: string }) => c.name === name);

const gameContainerRunning = (pod: KubeObject, name: string) => gameContainer(pod, name)?.state?.running !== undefined;

/** The health controller's test: the pod failed, or the game container has terminated. */
const unhealthy = (pod: KubeObject, name: string) =>
  pod.metadata.deletionTimestamp !== undefined ||
  pod.status?.phase === 'Failed' ||
  gameContainer(pod, name)?.state?.terminated !== undefined;

/** status.address, addresses, ports and nodeName, as Agones sets them once the pod has a node. */
function address(gs: KubeObject, pod: KubeObject) {
  return {
    address: '127.0.0.1',
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: NODE_NAME },
      { type: 'PodIP', address: pod.status.podIP },
    ],
    ports: (gs.spec.ports as GamePort[])
      .filter((p) => p.portPolicy !== 'None' || p.containerPort)
      .map((p) => ({ name: p.name ?? '', port: p.portPolicy === 'None' ? p.containerPort : p.hostPort })),
    nodeName: NODE_NAME,
  };
}

/** The pod Agones makes for a GameServer (GameServer.Pod in Agones), without the sidecar container: the stand-in
 * serves the SDK itself, on the ports given to the game container in AGONES_SDK_GRPC_PORT / AGONES_SDK_HTTP_PORT. */
function gameServerPod(gs: KubeObject, sdk: SdkServer): KubeObject {
  const template = structuredClone(gs.spec.template ?? {});
  const name = gs.metadata.name ?? '';
  const spec = template.spec ?? {};
  spec.hostname ||= name.replaceAll('.', '-');
  spec.restartPolicy ||= 'Never';
  for (const c of spec.containers ?? []) {
    if (c.name === gs.spec.container) {
      const ports = c.ports ?? [];
      for (const p of gs.spec.ports as GamePort[]) {
        const hostPort = p.portPolicy === 'None' ? undefined : p.hostPort;
        for (const protocol of p.protocol === 'TCPUDP' ? ['TCP', 'UDP'] : [p.protocol])
          ports.push({ containerPort: p.containerPort, ...(hostPort ? { hostPort } : {}), protocol });
      }
      c.ports = ports;
    }
    const env = (c.env ?? []).filter((e: { name: string }) => !e.name.startsWith('AGONES_SDK_'));
    c.env = [
      ...env,
      { name: 'AGONES_SDK_GRPC_PORT', value: String(sdk.grpcPort) },
      { name: 'AGONES_SDK_HTTP_PORT', value: String(sdk.httpPort) },
    ];
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...template.metadata,
      name,
      labels: { ...template.metadata?.labels, 'agones.dev/role': 'gameserver', 'agones.dev/gameserver': name },
      annotations: {
        ...template.metadata?.annotations,
        'agones.dev/container': gs.spec.container,
        'agones.dev/sdk-version': AGONES_VERSION,
      },
      ownerReferences: [
        {
          apiVersion: 'agones.dev/v1',
          kind: 'GameServer',
          name,
          uid: gs.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec,
  };
}
