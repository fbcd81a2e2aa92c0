// The kinds the stand-in serves, described the way the API server's discovery describes them.

/** A Kubernetes object as JSON: the stand-in keeps objects as plain data, like etcd keeps them. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  // biome-ignore lint/suspicious/noExplicitAny: objects are untyped JSON checked against the published schemas
  spec?: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  status?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
  [other: string]: unknown;
}

export interface ResourceType {
  /** URL segment: pods, gameservers… */
  plural: string;
  singular: string;
  kind: string;
  /** '' for the core group. */
  group: '' | 'agones.dev';
  apiVersion: string;
  shortNames: string[];
  /** Whether metadata.generation is kept (it counts spec changes). */
  generation: boolean;
  /** Writes to the main resource leave status alone; status has its own /status endpoint. */
  statusSubresource: boolean;
  /** The form used in messages: "pods", "gameservers.agones.dev". */
  qualified: string;
}

const core = (plural: string, singular: string, kind: string, shortNames: string[], extra: Partial<ResourceType>) => ({
  plural,
  singular,
  kind,
  group: '' as const,
  apiVersion: 'v1',
  shortNames,
  generation: false,
  statusSubresource: false,
  qualified: plural,
  ...extra,
});

export const resourceTypes: ResourceType[] = [
  core('pods', 'pod', 'Pod', ['po'], { generation: true, statusSubresource: true }),
  core('persistentvolumeclaims', 'persistentvolumeclaim', 'PersistentVolumeClaim', ['pvc'], {
    statusSubresource: true,
  }),
  core('secrets', 'secret', 'Secret', [], {}),
  {
    plural: 'gameservers',
    singular: 'gameserver',
    kind: 'GameServer',
    group: 'agones.dev',
    apiVersion: 'agones.dev/v1',
    shortNames: ['gs'],
    generation: true,
    // The Agones CRD enables only the scale subresource: status is written through the main resource.
    statusSubresource: false,
    qualified: 'gameservers.agones.dev',
  },
];

/** The type served at `plural` in `group`, if any. */
export function resourceType(group: string, plural: string): ResourceType | undefined {
  return resourceTypes.find((t) => t.group === group && t.plural === plural);
}

/** Verbs each resource answers, as discovery lists them. */
export const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** A deep copy, for handing stored objects out and taking request bodies in. */
export const clone = <T>(value: T): T => structuredClone(value);

/** RFC 3339 at second precision, as the API server writes timestamps. */
export const timestamp = (date = new Date()) => `${date.toISOString().slice(0, 19)}Z`;
