import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesObject,
  type V1PersistentVolumeClaim,
  type V1Pod,
  type V1Secret,
} from '@kubernetes/client-node';
import { AGONES_GROUP, AGONES_VERSION, GAMESERVERS, type GameServer } from './agones.ts';

// The Kubernetes API calls of the driver, on the official client (@kubernetes/client-node). Everything is
// namespaced; "already there" on create and "not there" on delete are successes, so each step can be repeated
// after a crash of the api or a race with another replica.

const status = (error: unknown) => (error instanceof ApiException ? error.code : undefined);

/** Runs a create; an object of that name that exists already counts as made (409 AlreadyExists). */
async function created(make: () => Promise<unknown>): Promise<'created' | 'exists'> {
  try {
    await make();
    return 'created';
  } catch (error) {
    if (status(error) === 409) return 'exists';
    throw error;
  }
}

/** Runs a delete; an object that is gone already counts as deleted (404 NotFound). */
async function deleted(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (status(error) !== 404) throw error;
  }
}

/** A short message of a failed API call (the API's own message when it gave one). */
export function apiMessage(error: unknown): string {
  if (error instanceof ApiException) {
    const body = error.body as { message?: unknown } | string | undefined;
    const message = typeof body === 'object' && typeof body?.message === 'string' ? body.message : String(body ?? '');
    return `Kubernetes API answered ${error.code}${message ? `: ${message}` : ''}`;
  }
  return (error as Error)?.message ?? String(error);
}

/** The namespaced calls of the driver. */
export class KubeApi {
  readonly namespace: string;
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;

  constructor(kc: KubeConfig, namespace: string) {
    this.namespace = namespace;
    this.core = kc.makeApiClient(CoreV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
  }

  private gameServers = { group: AGONES_GROUP, version: AGONES_VERSION, plural: GAMESERVERS };

  /** Lists the GameServers with these labels (the informer's list; reconcile). */
  listGameServers(labelSelector: string) {
    return this.custom.listNamespacedCustomObject({
      ...this.gameServers,
      namespace: this.namespace,
      labelSelector,
    }) as Promise<{ items: GameServer[]; metadata?: { resourceVersion?: string } } & KubernetesObject>;
  }

  listPods(labelSelector: string) {
    return this.core.listNamespacedPod({ namespace: this.namespace, labelSelector });
  }

  createGameServer(body: GameServer) {
    return created(() =>
      this.custom.createNamespacedCustomObject({ ...this.gameServers, namespace: this.namespace, body }),
    );
  }

  deleteGameServer(name: string) {
    return deleted(() =>
      this.custom.deleteNamespacedCustomObject({ ...this.gameServers, namespace: this.namespace, name }),
    );
  }

  createSecret(body: V1Secret) {
    return created(() => this.core.createNamespacedSecret({ namespace: this.namespace, body }));
  }

  deleteSecret(name: string) {
    return deleted(() => this.core.deleteNamespacedSecret({ name, namespace: this.namespace }));
  }

  createVolumeClaim(body: V1PersistentVolumeClaim) {
    return created(() => this.core.createNamespacedPersistentVolumeClaim({ namespace: this.namespace, body }));
  }

  deleteVolumeClaim(name: string) {
    return deleted(() => this.core.deleteNamespacedPersistentVolumeClaim({ name, namespace: this.namespace }));
  }

  createPod(body: V1Pod) {
    return created(() => this.core.createNamespacedPod({ namespace: this.namespace, body }));
  }

  deletePod(name: string) {
    return deleted(() => this.core.deleteNamespacedPod({ name, namespace: this.namespace }));
  }

  /** The last `lines` lines a pod's container wrote (empty when there is no such pod or log). */
  async podLog(name: string, container: string, lines: number): Promise<string[]> {
    try {
      const text = await this.core.readNamespacedPodLog({
        name,
        namespace: this.namespace,
        container,
        tailLines: lines,
      });
      return String(text ?? '')
        .split('\n')
        .filter((l) => l !== '')
        .slice(-lines);
    } catch (error) {
      if (status(error) === 404 || status(error) === 400) return [];
      throw error;
    }
  }
}
