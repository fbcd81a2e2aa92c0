// The scheduler and kubelet of the stand-in's one node: binds each pod, gives it its own loopback IP, runs its
// containers as local processes, reports their state, restarts them by restartPolicy, and on deletion sends
// SIGTERM, then SIGKILL after the grace period, before the pod object goes.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Api } from './api.ts';
import { bytes, ContainerProcess, LogBuffer } from './container.ts';
import { ConfigError, type Container, startSpec } from './container-env.ts';
import { type ContainerView, type PodView, podStatus, unschedulableStatus } from './pod-status.ts';
import { checkProbe, type Probe, ReadinessProber } from './probes.ts';
import { type KubeObject, resourceType, timestamp } from './resources.ts';
import type { StoreEvent } from './store.ts';
import type { Volumes } from './volumes.ts';
import { WorkQueue } from './work-queue.ts';

export const NODE_NAME = 'stand-in-node';
const pods = resourceType('', 'pods') as NonNullable<ReturnType<typeof resourceType>>;
const secrets = resourceType('', 'secrets') as NonNullable<ReturnType<typeof resourceType>>;

interface Running extends ContainerView {
  spec: Container & { readinessProbe?: Probe };
  prober?: ReadinessProber;
  process?: ContainerProcess;
  log: LogBuffer;
  previousLog?: LogBuffer;
  backoff?: NodeJS.Timeout;
}

/** What the kubelet keeps about a pod it runs. */
interface PodRuntime extends PodView {
  uid: string;
  dir: string;
  containers: Running[];
  terminating?: { since: number; timer?: NodeJS.Timeout; graceSeconds: number };
  configError?: string;
}

export interface KubeletOptions {
  api: Api;
  volumes: Volumes;
  /** Working directory of every container (the repository root). */
  cwd: string;
  /** Where pods' own directories go. */
  dir: string;
  /** First three octets of pod IPs: each pod gets `<podNetwork>.<n>`. */
  podNetwork: string;
  /** First restart delay of a container (doubling, at most ten times it). */
  restartBackoffMs: number;
}

export class Kubelet {
  readonly runtimes = new Map<string, PodRuntime>();
  private opts: KubeletOptions;
  private queue: WorkQueue;
  private nextIp = 0;

  constructor(opts: KubeletOptions) {
    this.opts = opts;
    this.queue = new WorkQueue((key) => this.reconcile(key));
  }

  onEvent(event: StoreEvent): void {
    const { namespace = '', name = '' } = event.object.metadata;
    if (event.resource === pods) this.queue.add(`${namespace}/${name}`);
    // A pod waiting for a secret, or for a claim, tries again when it may have come.
    if (event.resource === secrets || event.resource.kind === 'PersistentVolumeClaim')
      for (const [key, rt] of this.runtimes) if (rt.configError && key.startsWith(`${namespace}/`)) this.queue.add(key);
    if (event.resource.kind === 'PersistentVolumeClaim')
      for (const pod of this.opts.api.store.list(pods, namespace))
        if (!pod.spec?.nodeName) this.queue.add(`${namespace}/${pod.metadata.name}`);
  }

  /** Sends `signal` to every container process of the pod (as a crash or an OOM kill would end it). */
  kill(namespace: string, name: string, signal: NodeJS.Signals | 'OOM'): void {
    for (const c of this.runtimes.get(`${namespace}/${name}`)?.containers ?? [])
      if (signal === 'OOM') c.process?.oomKill();
      else c.process?.kill(signal);
  }

  /** The container's log buffer (the current run, or the previous one), for pods/log. */
  log(
    namespace: string,
    name: string,
    container: string | undefined,
    previous: boolean,
  ): LogBuffer | string[] | undefined {
    const rt = this.runtimes.get(`${namespace}/${name}`);
    if (!rt) return undefined;
    const c =
      container === undefined && rt.containers.length === 1
        ? rt.containers[0]
        : rt.containers.find((x) => x.name === container);
    if (!c) return rt.containers.map((x) => x.name);
    return previous ? c.previousLog : c.log;
  }

  /** Kills every process at once (the stand-in is stopping). */
  stopAll(): Promise<unknown> {
    this.queue.stop();
    const exits = [];
    for (const rt of this.runtimes.values())
      for (const c of rt.containers) {
        clearTimeout(c.backoff);
        c.prober?.stop();
        c.process?.kill('SIGKILL');
        if (c.process) exits.push(c.process.exited);
      }
    return Promise.all(exits);
  }

  private reconcile(key: string): void {
    const [namespace = '', name = ''] = key.split('/');
    const pod = this.opts.api.store.get(pods, namespace, name);
    let rt = this.runtimes.get(key);
    if (rt && (!pod || pod.metadata.uid !== rt.uid)) {
      // Gone (a forced delete) or replaced by a new pod of the same name: its processes go now.
      for (const c of rt.containers) c.process?.kill('SIGKILL');
      this.forget(key, rt);
      rt = undefined;
    }
    if (!pod) return;
    if (pod.metadata.deletionTimestamp) this.terminate(key, pod, rt);
    else if (!pod.spec.nodeName) this.schedule(pod);
    else if (!rt || rt.configError) this.start(key, pod, rt);
  }

  private schedule(pod: KubeObject): void {
    const why = this.opts.volumes.unschedulable(pod);
    const next = structuredClone(pod);
    if (why) next.status = unschedulableStatus(why);
    else next.spec.nodeName = NODE_NAME;
    this.opts.api.system(pods, next);
  }

  private start(key: string, pod: KubeObject, existing: PodRuntime | undefined): void {
    const rt: PodRuntime = existing ?? {
      uid: pod.metadata.uid ?? '',
      ip: this.allocateIp(),
      dir: join(this.opts.dir, 'pods', `${pod.metadata.namespace}-${pod.metadata.name}-${pod.metadata.uid}`),
      startTime: timestamp(),
      phase: 'Pending',
      containers: (pod.spec.containers as Container[]).map((spec) => ({
        name: spec.name,
        image: spec.image ?? '',
        spec,
        state: { kind: 'waiting', reason: 'ContainerCreating' },
        restartCount: 0,
        log: new LogBuffer(),
      })),
    };
    this.runtimes.set(key, rt);
    mkdirSync(join(rt.dir, 'home'), { recursive: true, mode: 0o700 });
    let prepared: { args: string[]; env: Record<string, string> }[];
    try {
      if (pod.spec.initContainers?.length) throw new ConfigError('the stand-in does not run initContainers');
      const mounts = this.opts.volumes.mount(pod, rt.dir);
      const secret = (name: string) => {
        const found = this.opts.api.store.get(secrets, pod.metadata.namespace ?? '', name);
        return found && (found.data ?? {});
      };
      prepared = rt.containers.map((c) => {
        checkProbe(c.spec);
        return startSpec(pod, c.spec, { ip: rt.ip, home: join(rt.dir, 'home'), volumes: mounts, secret });
      });
    } catch (error) {
      rt.configError = (error as Error).message;
      for (const c of rt.containers)
        c.state = { kind: 'waiting', reason: 'CreateContainerConfigError', message: rt.configError };
      this.report(key, rt);
      return;
    }
    rt.configError = undefined;
    rt.phase = 'Running';
    for (const [i, c] of rt.containers.entries())
      this.run(key, rt, c, prepared[i] as { args: string[]; env: Record<string, string> });
    this.report(key, rt);
  }

  private run(key: string, rt: PodRuntime, c: Running, start: { args: string[]; env: Record<string, string> }): void {
    const proc = new ContainerProcess({
      name: c.name,
      args: start.args,
      env: start.env,
      cwd: this.opts.cwd,
      log: c.log,
      memoryLimit: bytes(c.spec.resources?.limits?.memory),
    });
    c.process = proc;
    c.state = { kind: 'running', startedAt: proc.startedAt, pid: proc.pid };
    const probe = c.spec.readinessProbe;
    c.ready = probe ? false : undefined;
    if (probe) {
      const prober: ReadinessProber = new ReadinessProber(probe, c.spec, rt.ip, () => {
        c.ready = prober.ready;
        this.report(key, rt);
      });
      c.prober = prober;
    }
    void proc.exited.then((exit) => {
      if (c.process !== proc) return;
      c.prober?.stop();
      c.state = { kind: 'terminated', exit, pid: proc.pid };
      const policy =
        this.opts.api.store.get(pods, ...(key.split('/') as [string, string]))?.spec.restartPolicy ?? 'Always';
      const again = !rt.terminating && (policy === 'Always' || (policy === 'OnFailure' && exit.exitCode !== 0));
      if (again) {
        const delay = Math.min(this.opts.restartBackoffMs * 2 ** c.restartCount, this.opts.restartBackoffMs * 10);
        c.backoff = setTimeout(() => {
          if (rt.terminating || this.runtimes.get(key) !== rt) return;
          c.last = exit;
          c.restartCount++;
          c.previousLog = c.log;
          c.log = new LogBuffer();
          this.run(key, rt, c, start);
          this.report(key, rt);
        }, delay);
        c.state = {
          kind: 'waiting',
          reason: 'CrashLoopBackOff',
          message: `back-off restarting failed container ${c.name}`,
        };
        c.last = exit;
      } else if (rt.containers.every((x) => x.state.kind === 'terminated'))
        rt.phase = rt.containers.every((x) => x.state.kind === 'terminated' && x.state.exit.exitCode === 0)
          ? 'Succeeded'
          : 'Failed';
      if (rt.terminating) this.finishIfDone(key, rt);
      else this.report(key, rt);
    });
  }

  private terminate(key: string, pod: KubeObject, rt: PodRuntime | undefined): void {
    const grace = pod.metadata.deletionGracePeriodSeconds ?? 30;
    if (!rt) {
      this.opts.api.store.delete(pods, pod.metadata.namespace ?? '', pod.metadata.name ?? '', 0);
      return;
    }
    if (!rt.terminating) {
      rt.terminating = { since: Date.now(), graceSeconds: grace };
      for (const c of rt.containers) {
        clearTimeout(c.backoff);
        c.process?.kill('SIGTERM');
      }
    } else if (grace >= rt.terminating.graceSeconds && rt.terminating.timer) return;
    // (Re)arm SIGKILL for the end of the grace period, which a second delete can shorten.
    rt.terminating.graceSeconds = Math.min(grace, rt.terminating.graceSeconds);
    clearTimeout(rt.terminating.timer);
    const left = rt.terminating.since + rt.terminating.graceSeconds * 1000 - Date.now();
    rt.terminating.timer = setTimeout(
      () => {
        for (const c of rt.containers) c.process?.kill('SIGKILL');
      },
      Math.max(0, left),
    );
    this.finishIfDone(key, rt);
  }

  /** Once every container of a terminating pod has exited, the pod object goes (grace period 0). */
  private finishIfDone(key: string, rt: PodRuntime): void {
    if (rt.containers.some((c) => c.process && !c.process.exit)) return;
    clearTimeout(rt.terminating?.timer);
    const [namespace = '', name = ''] = key.split('/');
    this.report(key, rt);
    const pod = this.opts.api.store.get(pods, namespace, name);
    if (pod?.metadata.uid === rt.uid) this.opts.api.store.delete(pods, namespace, name, 0);
    this.forget(key, rt);
  }

  private forget(key: string, rt: PodRuntime): void {
    if (this.runtimes.get(key) === rt) this.runtimes.delete(key);
    for (const c of rt.containers) {
      clearTimeout(c.backoff);
      c.prober?.stop();
      c.log.end();
    }
    clearTimeout(rt.terminating?.timer);
    rmSync(rt.dir, { recursive: true, force: true });
  }

  /** Writes the pod's status as the kubelet sees it (no write when nothing changed). */
  private report(key: string, rt: PodRuntime): void {
    const [namespace = '', name = ''] = key.split('/');
    const pod = this.opts.api.store.get(pods, namespace, name);
    if (!pod || pod.metadata.uid !== rt.uid) return;
    pod.status = podStatus(rt, pod.status);
    try {
      this.opts.api.system(pods, pod);
    } catch (error) {
      console.error(`k8s stand-in: pod ${key} status not written:`, error);
    }
  }

  private allocateIp(): string {
    const n = this.nextIp++;
    return `${this.opts.podNetwork.split('.').slice(0, 2).join('.')}.${Number(this.opts.podNetwork.split('.')[2]) + Math.floor(n / 254)}.${(n % 254) + 1}`;
  }
}
