import { createHash } from 'node:crypto';

// The names and labels of the Kubernetes objects of one hosted server. Server ids are UUIDs (servers.service.ts),
// which are DNS-1123 labels already; anything else (a test's id, a future scheme) is hashed into one.

/** Labels every object the driver makes carries; the informers select on the first. */
export const labels = {
  managedBy: 'app.kubernetes.io/managed-by',
  server: 'canopy.gg/server',
  owner: 'canopy.gg/owner',
  /** `game` on a GameServer and its pod, `files` on a maintenance pod. */
  role: 'canopy.gg/role',
} as const;

/** The server's id as it is (label values are hashed when the id does not fit one). */
export const SERVER_ID_ANNOTATION = 'canopy.gg/server-id';

export const MANAGED_BY = 'canopy';
/** The label selector of everything this driver made. */
export const managedSelector = `${labels.managedBy}=${MANAGED_BY}`;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const hashed = (value: string) => `h-${createHash('sha256').update(value).digest('hex').slice(0, 40)}`;

/** A value usable as a label value (at most 63 characters of the allowed set), the value itself when it is one. */
export function labelValue(value: string): string {
  return value.length <= 63 && LABEL_VALUE.test(value) ? value : hashed(value);
}

/** The part of object names that stands for a server: its id when that is a DNS-1123 label short enough. */
function nameKey(id: string): string {
  // 63 characters per name, and the longest suffix is "-files" / "-data" after "canopy-".
  return id.length <= 50 && DNS_LABEL.test(id) ? id : hashed(id).toLowerCase();
}

/** Object names of one server. */
export const objectNames = (id: string) => {
  const key = nameKey(id);
  return {
    gameServer: `canopy-${key}`,
    secret: `canopy-${key}`,
    volumeClaim: `canopy-${key}-data`,
    filesPod: `canopy-${key}-files`,
  };
};

/** The labels of a server's objects. */
export const serverLabels = (id: string, ownerId: string, role: 'game' | 'files' | 'data') => ({
  [labels.managedBy]: MANAGED_BY,
  [labels.server]: labelValue(id),
  [labels.owner]: labelValue(ownerId),
  [labels.role]: role,
});
