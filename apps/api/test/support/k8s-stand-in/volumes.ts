// Storage: each PersistentVolumeClaim is bound at once to a local directory (the "provisioner"), kept until the
// claim is deleted; a claim in use by a pod stays Terminating until no pod uses it (pvc-protection); a pod's
// emptyDir and secret volumes are directories of its own.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Api } from './api.ts';
import { type KubeObject, resourceType } from './resources.ts';
import type { StoreEvent } from './store.ts';

const PROTECTION = 'kubernetes.io/pvc-protection';
const pvcs = resourceType('', 'persistentvolumeclaims') as NonNullable<ReturnType<typeof resourceType>>;
const pods = resourceType('', 'pods') as NonNullable<ReturnType<typeof resourceType>>;
const secrets = resourceType('', 'secrets') as NonNullable<ReturnType<typeof resourceType>>;

interface PodVolume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  emptyDir?: object;
  secret?: { secretName: string; optional?: boolean; items?: { key: string; path: string }[] };
}

export class Volumes {
  private api: Api;
  private dir: string;

  constructor(api: Api, dir: string) {
    this.api = api;
    this.dir = dir;
  }

  /** The local directory that stands for a claim's volume. */
  claimDir(claim: KubeObject): string {
    return join(this.dir, 'pvc', `${claim.metadata.namespace}-${claim.metadata.name}-${claim.metadata.uid}`);
  }

  onEvent(event: StoreEvent): void {
    const { object } = event;
    if (event.resource === pvcs) {
      if (event.type === 'DELETED') rmSync(this.claimDir(object), { recursive: true, force: true });
      else if (object.metadata.deletionTimestamp) this.release(object);
      else if (object.status?.phase !== 'Bound') this.bind(object);
    }
    if (event.resource === pods && event.type === 'DELETED')
      for (const claim of this.api.store.list(pvcs, object.metadata.namespace))
        if (claim.metadata.deletionTimestamp) this.release(claim);
  }

  /** The claim's admission adds the protection finalizer; binding gives it its capacity and a volume name. */
  private bind(claim: KubeObject): void {
    mkdirSync(this.claimDir(claim), { recursive: true, mode: 0o700 });
    const next = structuredClone(claim);
    if (!next.metadata.finalizers?.includes(PROTECTION))
      next.metadata.finalizers = [...(next.metadata.finalizers ?? []), PROTECTION];
    next.spec.volumeName = `pvc-${claim.metadata.uid}`;
    next.status = {
      phase: 'Bound',
      accessModes: claim.spec.accessModes,
      capacity: { storage: claim.spec.resources?.requests?.storage },
    };
    this.api.system(pvcs, next);
  }

  private release(claim: KubeObject): void {
    if (!claim.metadata.finalizers?.includes(PROTECTION)) return;
    const inUse = this.api.store
      .list(pods, claim.metadata.namespace)
      .some(
        (pod) =>
          !['Succeeded', 'Failed'].includes(pod.status?.phase) &&
          (pod.spec?.volumes ?? []).some((v: PodVolume) => v.persistentVolumeClaim?.claimName === claim.metadata.name),
      );
    if (inUse) return;
    const next = structuredClone(claim);
    next.metadata.finalizers = next.metadata.finalizers?.filter((f) => f !== PROTECTION);
    this.api.system(pvcs, next);
  }

  /** Why the pod cannot be scheduled yet (a claim missing, unbound or going), or undefined. */
  unschedulable(pod: KubeObject): string | undefined {
    for (const volume of (pod.spec?.volumes ?? []) as PodVolume[]) {
      const name = volume.persistentVolumeClaim?.claimName;
      if (name === undefined) continue;
      const claim = this.api.store.get(pvcs, pod.metadata.namespace ?? '', name);
      if (!claim) return `persistentvolumeclaim "${name}" not found`;
      if (claim.metadata.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
      if (claim.status?.phase !== 'Bound') return `pod has unbound immediate PersistentVolumeClaims`;
    }
    return undefined;
  }

  /** Sets up the pod's volumes; answers volume name → local directory. Throws when a secret volume is missing. */
  mount(pod: KubeObject, podDir: string): Map<string, string> {
    const dirs = new Map<string, string>();
    for (const volume of (pod.spec?.volumes ?? []) as PodVolume[]) {
      if (volume.persistentVolumeClaim) {
        const claim = this.api.store.get(pvcs, pod.metadata.namespace ?? '', volume.persistentVolumeClaim.claimName);
        if (!claim) throw new Error(`persistentvolumeclaim "${volume.persistentVolumeClaim.claimName}" not found`);
        dirs.set(volume.name, this.claimDir(claim));
      } else if (volume.emptyDir) {
        const dir = join(podDir, 'volumes', volume.name);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        dirs.set(volume.name, dir);
      } else if (volume.secret) {
        const secret = this.api.store.get(secrets, pod.metadata.namespace ?? '', volume.secret.secretName);
        if (!secret && !volume.secret.optional) throw new Error(`secret "${volume.secret.secretName}" not found`);
        const dir = join(podDir, 'volumes', volume.name);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const data = secret?.data ?? {};
        const items = volume.secret.items ?? Object.keys(data).map((key) => ({ key, path: key }));
        for (const item of items)
          if (data[item.key] !== undefined)
            writeFileSync(join(dir, item.path), Buffer.from(data[item.key] as string, 'base64'), { mode: 0o600 });
        dirs.set(volume.name, dir);
      } else
        throw new Error(
          `volume "${volume.name}": the stand-in mounts persistentVolumeClaim, emptyDir and secret volumes only`,
        );
    }
    return dirs;
  }
}
