import type { Db } from '../../db/db.ts';
import { ControlClient } from '../control-client.ts';
import type { FilesEndpoint, FilesLease } from '../server-files.ts';
import { type HostedServerSpec, RuntimeBusyError } from '../types.ts';
import type { KubeApi } from './kube.ts';
import type { PowerLocks } from './lease.ts';
import { objectNames } from './names.ts';
import { filesPodManifest, type ObjectSettings } from './objects.ts';
import { ensureStorage } from './power.ts';
import { powerLockRepo } from './power-lock.repo.ts';
import { podIpOf } from './state.ts';
import { type ClusterView, serverIdOf } from './watch.ts';

// The maintenance pod of an offline server (docs/engine-files-api.md): a plain pod `canopy-<id>-files` running the
// engine in files-only mode on the server's volume, made on the first file call, used by every replica, deleted by
// the scheduler's leader once no replica used it for an idle while (servers.files_used_at), and deleted before the
// server's GameServer starts (under the power lock), since the two would share one volume.

/** What the maintenance pods need of the driver. */
export interface FilesHost {
  kube: KubeApi;
  view: ClusterView;
  locks: PowerLocks;
  db: Db;
  settings: ObjectSettings;
  timeouts: { startMs: number; stopMs: number; killMs: number };
  idleMs: number;
  /** The running game engine's control API while the server is ONLINE, else null. */
  control(id: string): ControlClient | null;
  isRemoved(id: string): boolean;
}

const POLL_MS = 200;

/** The maintenance pods as this replica uses them. */
export class MaintenancePods {
  private readonly host: FilesHost;
  /** File calls in flight on this replica, by server. */
  private readonly inFlight = new Map<string, number>();
  private readonly drainWaiters = new Map<string, Array<() => void>>();
  /** A pod being made by this replica, by server, so that concurrent calls share it. */
  private readonly making = new Map<string, Promise<void>>();
  /** When this replica last wrote files_used_at, by server. */
  private readonly touched = new Map<string, number>();

  constructor(host: FilesHost) {
    this.host = host;
  }

  /** The endpoint ServerFiles calls through: the game engine while ONLINE, else the maintenance pod. */
  endpoint(spec: HostedServerSpec): FilesEndpoint {
    return { acquire: () => this.acquire(spec) };
  }

  private async acquire(spec: HostedServerSpec): Promise<FilesLease> {
    const { id } = spec;
    if (this.host.isRemoved(id)) throw new RuntimeBusyError('server is being deleted');
    const control = this.host.control(id);
    if (control) return { control, release: () => {} };
    const action = this.host.locks.holder(id);
    // exclusive() works on the files of a stopped server with the lock held: its calls are the ones allowed.
    if (action && action !== 'exclusive') throw new RuntimeBusyError('the server is starting or stopping');
    if (this.host.view.gameServer(id)) throw new RuntimeBusyError('the server is starting or stopping');
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    let released = false;
    const keepAlive = setInterval(() => void this.touch(id, true), Math.max(1000, this.host.idleMs / 4));
    keepAlive.unref();
    const release = () => {
      if (released) return;
      released = true;
      clearInterval(keepAlive);
      this.done(id);
    };
    try {
      await this.touch(id, false);
      const ip = await this.ready(spec, action === 'exclusive');
      return { control: new ControlClient(ip, this.host.settings.controlPort, spec.secret), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  private done(id: string) {
    const left = (this.inFlight.get(id) ?? 1) - 1;
    if (left > 0) return void this.inFlight.set(id, left);
    this.inFlight.delete(id);
    for (const wake of this.drainWaiters.get(id)?.splice(0) ?? []) wake();
  }

  /** Records the use so the leader's sweep keeps the pod (at most every quarter of the idle time, unless forced). */
  private async touch(id: string, force: boolean) {
    const now = Date.now();
    if (!force && now - (this.touched.get(id) ?? 0) < this.host.idleMs / 4) return;
    this.touched.set(id, now);
    await powerLockRepo.touchFiles(this.host.db, id, now).catch(() => {});
  }

  /** The IP of the server's maintenance pod once its engine answers, making the pod when there is none. */
  private async ready(spec: HostedServerSpec, underOwnLock: boolean): Promise<string> {
    const name = objectNames(spec.id).filesPod;
    const { view } = this.host;
    const pod = view.pod(name);
    const ended = pod?.status?.phase === 'Failed' || pod?.status?.phase === 'Succeeded';
    if (!pod || pod.metadata?.deletionTimestamp || ended) {
      let making = this.making.get(spec.id);
      if (!making) {
        making = this.make(spec, underOwnLock, ended).finally(() => this.making.delete(spec.id));
        this.making.set(spec.id, making);
      }
      await making;
    }
    const deadline = Date.now() + this.host.timeouts.startMs;
    while (Date.now() < deadline) {
      const current = view.pod(name);
      if (!current || current.status?.phase === 'Failed' || current.status?.phase === 'Succeeded')
        throw new Error('the files-only engine ended before it answered');
      const ip = podIpOf(current);
      if (ip) {
        const answered = await new ControlClient(ip, this.host.settings.controlPort, spec.secret)
          .stats()
          .then(() => true)
          .catch(() => false);
        if (answered) return ip;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`the files-only engine did not answer within ${this.host.timeouts.startMs} ms`);
  }

  /**
   * Makes the pod under the server's lease (unless this replica's exclusive() holds it already), so that no start
   * on another replica runs between the check that no GameServer exists and the pod's creation.
   */
  private async make(spec: HostedServerSpec, underOwnLock: boolean, replaceEnded: boolean) {
    const name = objectNames(spec.id).filesPod;
    const create = async () => {
      if (this.host.view.gameServer(spec.id)) throw new RuntimeBusyError('the server is starting or stopping');
      if (replaceEnded || this.host.view.pod(name)?.metadata?.deletionTimestamp) await this.deletePod(spec.id);
      await ensureStorage(this.host.kube, this.host.settings, spec);
      await this.host.kube.createPod(filesPodManifest(this.host.settings, spec));
      await this.host.view.until(() => this.host.view.pod(name) !== undefined, this.host.timeouts.startMs);
    };
    if (underOwnLock) await create();
    else await this.host.locks.run(spec.id, 'files', create);
  }

  private async deletePod(id: string) {
    const name = objectNames(id).filesPod;
    await this.host.kube.deletePod(name);
    const { stopMs, killMs } = this.host.timeouts;
    if (!(await this.host.view.until(() => this.host.view.pod(name) === undefined, stopMs + killMs + 30_000)))
      throw new Error('the files-only engine did not stop');
  }

  /**
   * Before the server's game engine starts (under its power lock): this replica's calls in flight finish, then the
   * maintenance pod is deleted and gone. Calls of other replicas still running are cut (they answer 502).
   */
  async hold(id: string): Promise<void> {
    if ((this.inFlight.get(id) ?? 0) > 0)
      await new Promise<void>((resolve) => {
        const waiters = this.drainWaiters.get(id) ?? [];
        waiters.push(resolve);
        this.drainWaiters.set(id, waiters);
      });
    if (this.host.view.pod(objectNames(id).filesPod)) await this.deletePod(id);
  }

  /**
   * The leader's sweep: deletes maintenance pods that no replica used for the idle time (an api restart leaves them
   * behind too), and any beside a GameServer.
   */
  async sweep(): Promise<void> {
    const now = Date.now();
    for (const pod of this.host.view.allPods()) {
      const id = serverIdOf(pod);
      if (!id || pod.metadata?.name !== objectNames(id).filesPod || pod.metadata.deletionTimestamp) continue;
      if ((this.inFlight.get(id) ?? 0) > 0 || this.making.has(id)) continue;
      const usedAt = await powerLockRepo.filesUsedAt(this.host.db, id).catch(() => now);
      const idle = usedAt === null || now - usedAt >= this.host.idleMs;
      if (idle || this.host.view.gameServer(id)) await this.host.kube.deletePod(pod.metadata.name).catch(() => {});
    }
  }
}
