// The stand-in's etcd: objects by resource, namespace and name, one global resourceVersion counter, and the
// recent history of changes that watches start from.
import { randomBytes, randomUUID } from 'node:crypto';
import { clone, type KubeObject, type ResourceType, timestamp } from './resources.ts';
import { alreadyExists, conflict, notFound } from './status.ts';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: EventType;
  resource: ResourceType;
  /** The object as of this event (frozen: never changed afterwards). */
  object: KubeObject;
  /** The object before this change (MODIFIED only), so that a filtered watch sees it leave or enter its set. */
  previous?: KubeObject;
  rv: number;
}

type Listener = (event: StoreEvent) => void;

const keyOf = (resource: ResourceType, namespace: string, name: string) => `${resource.plural}/${namespace}/${name}`;

/** Five lowercase alphanumerics, as generateName appends. */
export const suffix = () => [...randomBytes(5)].map((b) => 'bcdfghjklmnpqrstvwxz2456789'[b % 27]).join('');

export class Store {
  private objects = new Map<string, KubeObject>();
  private history: StoreEvent[] = [];
  private listeners = new Set<Listener>();
  /** The newest resourceVersion whose event is no longer kept (a watch from before it gets 410 Expired). */
  private compacted: number;
  rv: number;
  readonly historyLimit: number;

  constructor(opts: { historyLimit?: number; firstResourceVersion?: number } = {}) {
    this.historyLimit = opts.historyLimit ?? 1000;
    this.rv = opts.firstResourceVersion ?? 1000;
    this.compacted = this.rv;
  }

  /** The stored object, a copy; undefined when absent. */
  get(resource: ResourceType, namespace: string, name: string): KubeObject | undefined {
    const found = this.objects.get(keyOf(resource, namespace, name));
    return found && clone(found);
  }

  /** Like get, but a missing object is a 404 NotFound. */
  require(resource: ResourceType, namespace: string, name: string): KubeObject {
    const found = this.get(resource, namespace, name);
    if (!found) throw notFound(resource, name);
    return found;
  }

  /** Every object of a resource (in one namespace, or all), sorted by namespace and name, as copies. */
  list(resource: ResourceType, namespace?: string): KubeObject[] {
    const prefix = namespace === undefined ? `${resource.plural}/` : `${resource.plural}/${namespace}/`;
    return [...this.objects.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => clone(object));
  }

  /** Stores a new object: name (or generateName), uid, resourceVersion, creationTimestamp, generation. */
  create(resource: ResourceType, namespace: string, input: KubeObject): KubeObject {
    const object = clone(input);
    const meta = object.metadata;
    if (!meta.name && meta.generateName) {
      do meta.name = `${meta.generateName}${suffix()}`;
      while (this.objects.has(keyOf(resource, namespace, meta.name)));
    }
    const name = meta.name ?? '';
    if (this.objects.has(keyOf(resource, namespace, name))) throw alreadyExists(resource, name);
    meta.namespace = namespace;
    meta.uid = randomUUID();
    meta.creationTimestamp = timestamp();
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (resource.generation) meta.generation = 1;
    else delete meta.generation;
    return this.commit('ADDED', resource, object);
  }

  /**
   * Replaces a stored object. A resourceVersion given that is not the stored one is a 409 Conflict; none given is
   * an unconditional update (allowed for these kinds). uid and creationTimestamp cannot change; generation counts
   * spec changes. An object being deleted whose finalizers are all gone is removed.
   */
  update(resource: ResourceType, input: KubeObject): KubeObject {
    const meta = input.metadata;
    const namespace = meta.namespace ?? '';
    const name = meta.name ?? '';
    const stored = this.objects.get(keyOf(resource, namespace, name));
    if (!stored) throw notFound(resource, name);
    if (meta.resourceVersion && meta.resourceVersion !== stored.metadata.resourceVersion)
      throw conflict(resource, name);
    const object = clone(input);
    object.metadata.uid = stored.metadata.uid;
    object.metadata.creationTimestamp = stored.metadata.creationTimestamp;
    object.metadata.namespace = namespace;
    // deletionTimestamp is set only by a delete, never by a write.
    if (stored.metadata.deletionTimestamp) {
      object.metadata.deletionTimestamp = stored.metadata.deletionTimestamp;
      object.metadata.deletionGracePeriodSeconds =
        object.metadata.deletionGracePeriodSeconds ?? stored.metadata.deletionGracePeriodSeconds;
    } else {
      delete object.metadata.deletionTimestamp;
      delete object.metadata.deletionGracePeriodSeconds;
    }
    if (resource.generation) {
      const generation = stored.metadata.generation ?? 1;
      // Binding a pod to its node (spec.nodeName) is not a change of its desired state.
      const spec = (o: KubeObject) => (resource.kind === 'Pod' ? { ...o.spec, nodeName: undefined } : o.spec);
      const specChanged = canonical(spec(object)) !== canonical(spec(stored));
      object.metadata.generation = specChanged ? generation + 1 : generation;
    }
    // A write that changes nothing does not bump the resourceVersion (no event), as in the API server.
    object.apiVersion = resource.apiVersion;
    object.kind = resource.kind;
    object.metadata.resourceVersion = stored.metadata.resourceVersion;
    if (canonical(object) === canonical(stored)) return clone(stored);
    if (this.removable(resource, object)) return this.remove(resource, object);
    return this.commit('MODIFIED', resource, object);
  }

  /**
   * Starts a deletion: an object with finalizers (or a pod, which the kubelet stops first) gets a
   * deletionTimestamp and stays; anything else is removed now. Answers the object as it now is.
   */
  delete(resource: ResourceType, namespace: string, name: string, gracePeriodSeconds?: number): KubeObject {
    const object = this.require(resource, namespace, name);
    const meta = object.metadata;
    const graceful = resource.kind === 'Pod' && gracePeriodSeconds !== 0;
    if (meta.deletionTimestamp) {
      // A second delete can only shorten the grace period.
      if (gracePeriodSeconds !== undefined && gracePeriodSeconds < (meta.deletionGracePeriodSeconds ?? Infinity)) {
        meta.deletionGracePeriodSeconds = gracePeriodSeconds;
        return this.removable(resource, object)
          ? this.remove(resource, object)
          : this.commit('MODIFIED', resource, object);
      }
      return object;
    }
    if (!graceful && !meta.finalizers?.length) return this.remove(resource, object);
    meta.deletionTimestamp = timestamp();
    meta.deletionGracePeriodSeconds = resource.kind === 'Pod' ? (gracePeriodSeconds ?? podGrace(object)) : 0;
    return this.removable(resource, object) ? this.remove(resource, object) : this.commit('MODIFIED', resource, object);
  }

  /** Calls `listener` for every change from now on; the returned function stops it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The kept events after `rv` (for a watch starting there), or 'expired' when some of them are no longer kept.
   */
  since(rv: number): StoreEvent[] | 'expired' {
    if (rv < this.compacted) return 'expired';
    return this.history.filter((event) => event.rv > rv);
  }

  /** The oldest resourceVersion a watch can still start from. */
  get oldest(): number {
    return this.compacted;
  }

  private removable(resource: ResourceType, object: KubeObject): boolean {
    const meta = object.metadata;
    if (!meta.deletionTimestamp || meta.finalizers?.length) return false;
    return resource.kind !== 'Pod' || meta.deletionGracePeriodSeconds === 0;
  }

  private remove(resource: ResourceType, object: KubeObject): KubeObject {
    this.objects.delete(keyOf(resource, object.metadata.namespace ?? '', object.metadata.name ?? ''));
    return this.commit('DELETED', resource, object, false);
  }

  private commit(type: EventType, resource: ResourceType, object: KubeObject, keep = true): KubeObject {
    object.apiVersion = resource.apiVersion;
    object.kind = resource.kind;
    object.metadata.resourceVersion = String(++this.rv);
    const frozen = deepFreeze(clone(object));
    const key = keyOf(resource, object.metadata.namespace ?? '', object.metadata.name ?? '');
    const previous = type === 'MODIFIED' ? this.objects.get(key) : undefined;
    if (keep) this.objects.set(key, frozen);
    const event: StoreEvent = { type, resource, object: frozen, previous, rv: this.rv };
    this.history.push(event);
    while (this.history.length > this.historyLimit) this.compacted = this.history.shift()?.rv ?? this.compacted;
    for (const listener of this.listeners) listener(event);
    return clone(frozen);
  }
}

/** The grace period a pod's deletion gets when the request names none. */
export const podGrace = (pod: KubeObject): number => pod.spec?.terminationGracePeriodSeconds ?? 30;

/** JSON with keys sorted, to compare objects whatever order their fields came in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
