// What the API server does to a built-in object beyond its schema: defaults, and the validation rules the driver is
// most likely to trip on (names, a pod's containers and volumes, immutable fields). Not all of Kubernetes' rules.
import type { KubeObject, ResourceType } from './resources.ts';
import { invalid, type StatusCause } from './status.ts';
import { canonical } from './store.ts';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

const required = (field: string): StatusCause => ({ reason: 'FieldValueRequired', message: 'Required value', field });
const bad = (field: string, value: unknown, why: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
  field,
});

/** metadata.name must be a DNS-1123 subdomain (a label for names that become host names). */
export function checkName(type: ResourceType, object: KubeObject): void {
  const name = object.metadata.name;
  if (!name)
    throw invalid(type, '', [required(object.metadata.generateName ? 'metadata.generateName' : 'metadata.name')]);
  const label = type.kind === 'GameServer';
  if (name.length > (label ? 63 : 253) || !(label ? DNS_LABEL : DNS_SUBDOMAIN).test(name))
    throw invalid(type, name, [
      bad(
        'metadata.name',
        name,
        `a lowercase RFC 1123 ${label ? 'label' : 'subdomain'} must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
      ),
    ]);
}

/** Fills in the defaults the API server sets on create (a subset: those a test or a driver reads back). */
export function applyCoreDefaults(type: ResourceType, object: KubeObject): void {
  if (type.kind === 'Pod') {
    const spec = object.spec;
    spec.restartPolicy ??= 'Always';
    spec.terminationGracePeriodSeconds ??= 30;
    spec.dnsPolicy ??= 'ClusterFirst';
    spec.schedulerName ??= 'default-scheduler';
    spec.serviceAccountName ??= 'default';
    spec.enableServiceLinks ??= true;
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      c.imagePullPolicy ??= /:latest$|^[^:]*$/.test(c.image ?? '') ? 'Always' : 'IfNotPresent';
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      for (const p of c.ports ?? []) p.protocol ??= 'TCP';
    }
    object.status ??= {};
    object.status.phase ??= 'Pending';
    object.status.qosClass ??= 'BestEffort';
  } else if (type.kind === 'PersistentVolumeClaim') {
    object.spec.volumeMode ??= 'Filesystem';
    object.spec.storageClassName ??= 'standard';
    object.status ??= { phase: 'Pending' };
  } else if (type.kind === 'Secret') {
    object.type ??= 'Opaque';
    // stringData is write-only: merged into data (base64) and never stored.
    const data = object.stringData ? { ...object.data } : object.data;
    for (const [key, value] of Object.entries(object.stringData ?? {}))
      if (data) data[key] = Buffer.from(value).toString('base64');
    if (data) object.data = data;
    delete object.stringData;
  }
}

/** The API server's own checks on a create (and, with `old`, an update) of a built-in kind. */
export function checkCore(type: ResourceType, object: KubeObject, old?: KubeObject): void {
  const causes: StatusCause[] = [];
  if (type.kind === 'Pod') causes.push(...(old ? podUpdate(object, old) : podCreate(object)));
  if (type.kind === 'PersistentVolumeClaim') {
    if (!object.spec?.accessModes?.length) causes.push(required('spec.accessModes'));
    if (!object.spec?.resources?.requests?.storage) causes.push(required('spec.resources[storage]'));
    if (old && canonical({ ...object.spec, resources: undefined }) !== canonical({ ...old.spec, resources: undefined }))
      causes.push({
        reason: 'FieldValueForbidden',
        message:
          'Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
        field: 'spec',
      });
  }
  if (type.kind === 'Secret') {
    for (const key of Object.keys(object.data ?? {}))
      if (!SECRET_KEY.test(key))
        causes.push(
          bad(`data[${key}]`, key, "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"),
        );
    if (old?.immutable && canonical(old.data) !== canonical(object.data))
      causes.push({
        reason: 'FieldValueForbidden',
        message: 'Forbidden: field is immutable when `immutable` is set',
        field: 'data',
      });
  }
  if (causes.length) throw invalid(type, object.metadata.name ?? '', causes);
}

function podCreate(pod: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = pod.spec ?? {};
  if (!spec.containers?.length) causes.push(required('spec.containers'));
  const volumes = new Set<string>();
  for (const [i, v] of (spec.volumes ?? []).entries()) {
    if (volumes.has(v.name))
      causes.push({
        reason: 'FieldValueDuplicate',
        message: `Duplicate value: "${v.name}"`,
        field: `spec.volumes[${i}].name`,
      });
    volumes.add(v.name);
  }
  const names = new Set<string>();
  for (const [list, containers] of [
    ['initContainers', spec.initContainers ?? []],
    ['containers', spec.containers ?? []],
  ] as const) {
    for (const [i, c] of (
      containers as { name: string; image?: string; volumeMounts?: { name: string; mountPath: string }[] }[]
    ).entries()) {
      const at = `spec.${list}[${i}]`;
      if (!DNS_LABEL.test(c.name ?? '')) causes.push(bad(`${at}.name`, c.name, 'a lowercase RFC 1123 label'));
      if (names.has(c.name))
        causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: "${c.name}"`, field: `${at}.name` });
      names.add(c.name);
      if (!c.image) causes.push(required(`${at}.image`));
      for (const [j, m] of (c.volumeMounts ?? []).entries()) {
        if (!volumes.has(m.name))
          causes.push({
            reason: 'FieldValueNotFound',
            message: `Not found: "${m.name}"`,
            field: `${at}.volumeMounts[${j}].name`,
          });
        if (!m.mountPath?.startsWith('/'))
          causes.push(bad(`${at}.volumeMounts[${j}].mountPath`, m.mountPath, 'must be an absolute path'));
      }
    }
  }
  return causes;
}

/** A pod's spec is immutable but for its containers' images (and a few fields the stand-in does not model). */
function podUpdate(pod: KubeObject, old: KubeObject): StatusCause[] {
  const strip = (spec: KubeObject['spec']) => ({
    ...spec,
    containers: spec?.containers?.map((c: object) => ({ ...c, image: undefined })),
    activeDeadlineSeconds: undefined,
    terminationGracePeriodSeconds: undefined,
  });
  if (canonical(strip(pod.spec)) === canonical(strip(old.spec))) return [];
  return [
    {
      reason: 'FieldValueForbidden',
      message:
        'Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations), `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      field: 'spec',
    },
  ];
}
