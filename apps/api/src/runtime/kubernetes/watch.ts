import {
  type Informer,
  type KubeConfig,
  type KubernetesObject,
  makeInformer,
  type ObjectCache,
  type V1Pod,
} from '@kubernetes/client-node';
import { AGONES_GROUP, AGONES_VERSION, GAMESERVERS, type GameServer } from './agones.ts';
import type { KubeApi } from './kube.ts';
import { labels, managedSelector, objectNames, SERVER_ID_ANNOTATION } from './names.ts';

/** What changed: a GameServer or a pod of a server, added, changed or gone. */
export interface ViewChange {
  serverId: string;
  kind: 'gameserver' | 'pod';
  verb: 'add' | 'update' | 'delete';
  object: GameServer | V1Pod;
}

interface Logger {
  warn(msg: string): void;
}

/** How long after a broken watch the informer lists and watches again, doubling up to the maximum. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15_000;

/** The server an object belongs to: its annotation (the id as it is), else its label. */
export function serverIdOf(object: KubernetesObject): string | undefined {
  return object.metadata?.annotations?.[SERVER_ID_ANNOTATION] ?? object.metadata?.labels?.[labels.server];
}

/**
 * The driver's view of the cluster: two informers (list, then watch; client-node's ListWatch) on the GameServers and
 * pods this driver made, selected by label. Every replica runs its own, so each sees every change without polling
 * and without another replica telling it. A watch that breaks is listed and watched again (its cache's deletions
 * are reported then), with a growing delay while the API stays away.
 */
export class ClusterView {
  private readonly gameServers: Informer<GameServer> & ObjectCache<GameServer>;
  private readonly pods: Informer<V1Pod> & ObjectCache<V1Pod>;
  private readonly namespace: string;
  private readonly waiters = new Set<() => void>();
  private stopped = false;
  private begun = false;

  constructor(kc: KubeConfig, kube: KubeApi, log: Logger, onChange: (change: ViewChange) => void) {
    this.namespace = kube.namespace;
    // A list that succeeded resolves its promise once the informer has filled its cache from it (the informer does
    // that in the continuation of its await on the list, before any immediate runs).
    const listedBy = <T>(list: () => Promise<T>) => {
      let resolve = () => {};
      const listed = new Promise<void>((r) => {
        resolve = r;
      });
      return {
        listed,
        list: () =>
          list().then((result) => {
            setImmediate(resolve);
            return result;
          }),
      };
    };
    const gs = listedBy(() => kube.listGameServers(managedSelector));
    const pods = listedBy(() => kube.listPods(managedSelector));
    this.listed = Promise.all([gs.listed, pods.listed]).then(() => {});
    this.gameServers = makeInformer<GameServer>(
      kc,
      `/apis/${AGONES_GROUP}/${AGONES_VERSION}/namespaces/${kube.namespace}/${GAMESERVERS}`,
      gs.list as never,
      managedSelector,
    );
    this.pods = makeInformer<V1Pod>(
      kc,
      `/api/v1/namespaces/${kube.namespace}/pods`,
      pods.list as never,
      managedSelector,
    );
    this.starts = [
      this.wire(this.gameServers, 'gameserver', 'GameServer', log, onChange),
      this.wire(this.pods, 'pod', 'pod', log, onChange),
    ];
  }

  private readonly starts: Array<() => Promise<void>>;
  private readonly listed: Promise<void>;

  /** Reports an informer's changes and starts it again (after a growing delay) when its watch or list fails. */
  private wire<T extends GameServer | V1Pod>(
    informer: Informer<T>,
    kind: ViewChange['kind'],
    name: string,
    log: Logger,
    onChange: (change: ViewChange) => void,
  ): () => Promise<void> {
    for (const verb of ['add', 'update', 'delete'] as const)
      informer.on(verb, (object) => {
        const serverId = serverIdOf(object);
        if (serverId) onChange({ serverId, kind, verb, object });
        this.wake();
      });
    let delay = RETRY_FIRST_MS;
    const start = async () => {
      if (!this.stopped) await informer.start();
    };
    informer.on('error', (error: unknown) => {
      if (this.stopped) return;
      log.warn(`kubernetes ${name} watch failed (${(error as Error)?.message ?? error}); trying again`);
      const wait = delay;
      delay = Math.min(delay * 2, RETRY_MAX_MS);
      setTimeout(() => void start(), wait).unref();
    });
    // A change seen means the watch works again.
    informer.on('change', () => {
      delay = RETRY_FIRST_MS;
    });
    return start;
  }

  /**
   * Starts both informers; resolves once each has listed what exists (so get() answers for every server), which
   * may take a while when the API is away: the informers keep trying meanwhile.
   */
  start(): Promise<void> {
    if (!this.begun) for (const start of this.starts) void start();
    this.begun = true;
    return this.listed;
  }

  /** Starts the informers if needed; resolves true once listed, false when that takes longer than `ms`. */
  async listedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const listed = await Promise.race([this.start().then(() => true as const), late]);
    clearTimeout(timer);
    return listed;
  }

  /** The server's GameServer as last seen, or undefined. */
  gameServer(id: string): GameServer | undefined {
    return this.gameServers.get(objectNames(id).gameServer, this.namespace);
  }

  /** A pod by name as last seen, or undefined. */
  pod(name: string): V1Pod | undefined {
    return this.pods.get(name, this.namespace);
  }

  /** Every GameServer this driver made (reconcile). */
  allGameServers(): readonly GameServer[] {
    return this.gameServers.list(this.namespace);
  }

  /** Every pod this driver made. */
  allPods(): readonly V1Pod[] {
    return this.pods.list(this.namespace);
  }

  /**
   * Resolves true once `ready()` holds (checked now and after every change the informers report), false after
   * `timeoutMs` or when `signal` aborts.
   */
  until(ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', aborted);
        resolve(value);
      };
      const check = () => {
        if (ready()) finish(true);
      };
      const aborted = () => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener('abort', aborted);
    });
  }

  private wake() {
    for (const check of [...this.waiters]) check();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.gameServers.stop(), this.pods.stop()]);
  }
}
