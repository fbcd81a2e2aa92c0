import type { ServerStatus } from '@canopy/contract';
import { ControlClient } from '../control-client.ts';
import { announcedPlayers } from '../local/players-line.ts';
import { ServerFiles } from '../server-files.ts';
import {
  type ConsoleWatch,
  type HostedServerSpec,
  RuntimeBusyError,
  type RuntimeDriver,
  type RuntimeState,
} from '../types.ts';
import { ConsoleFollowers } from './console.ts';
import { CrashWatch } from './crash.ts';
import { MaintenancePods } from './files.ts';
import { KubeApi } from './kube.ts';
import { Leadership } from './leadership.ts';
import { PowerLocks } from './lease.ts';
import { objectNames } from './names.ts';
import type { ObjectSettings } from './objects.ts';
import type { KubernetesDriverOptions } from './options.ts';
import { bringUp, type PowerHost, takeDown } from './power.ts';
import { gameAddressOf, podIpOf, statusOf } from './state.ts';
import { StatsReader } from './stats.ts';
import { ClusterView, type ViewChange } from './watch.ts';

const HOUR_MS = 3_600_000;

/**
 * Runs each hosted server as an Agones GameServer in a Kubernetes cluster (ADR 0043). Every api replica runs one:
 * each watches the cluster (watch.ts) and so tells its own browsers every change; power actions may come from any
 * replica and hold the server's lock across them (lease.ts); the scheduler's leader alone acts on crashes and brings
 * the cluster in line after a restart (crash.ts, leadership.ts).
 */
export class KubernetesDriver implements RuntimeDriver {
  readonly clusterWide = true;
  private readonly opts: KubernetesDriverOptions;
  private readonly kube: KubeApi;
  private readonly view: ClusterView;
  private readonly locks: PowerLocks;
  private readonly maintenance: MaintenancePods;
  private readonly crashes: CrashWatch;
  private readonly stats: StatsReader;
  private readonly consoles: ConsoleFollowers;
  private readonly leadership: Leadership;
  private readonly settings: ObjectSettings;
  private readonly power: PowerHost;
  private readonly specs = new Map<string, HostedServerSpec>();
  private readonly lookups = new Map<string, Promise<HostedServerSpec | null>>();
  /** The status this replica's own action shows meanwhile, by server (else the GameServer's, statusOf). */
  private readonly overrides = new Map<string, ServerStatus>();
  /** What was last told to the listener, by server, so that only changes are. */
  private readonly emitted = new Map<string, string>();
  private readonly removed = new Set<string>();
  private readonly lastCrash = new Map<string, number>();
  private readonly running = new Map<string, Promise<unknown>>();
  private listed = false;
  private reattaching: Promise<void> | null = null;

  constructor(opts: KubernetesDriverOptions) {
    this.opts = opts;
    const { cluster, timeouts } = opts;
    this.kube = new KubeApi(cluster.kubeConfig, cluster.namespace);
    this.settings = {
      namespace: cluster.namespace,
      image: cluster.image,
      controlPort: cluster.controlPort,
      gamePort: cluster.gamePort,
      volumeSize: cluster.volumeSize,
      storageClass: cluster.storageClass,
      stopGraceSeconds: Math.ceil((timeouts.stopMs + timeouts.killMs) / 1000),
    };
    this.view = new ClusterView(cluster.kubeConfig, this.kube, opts.log, (change) => this.changed(change));
    this.locks = new PowerLocks({ db: opts.db, now: Date.now, log: opts.log, ttlMs: opts.leaseTtlMs });
    this.maintenance = new MaintenancePods({
      kube: this.kube,
      view: this.view,
      locks: this.locks,
      db: opts.db,
      settings: this.settings,
      timeouts,
      idleMs: opts.filesIdleMs,
      control: (id) => this.control(id),
      isRemoved: (id) => this.removed.has(id),
    });
    const power: PowerHost = {
      kube: this.kube,
      view: this.view,
      files: this.maintenance,
      settings: this.settings,
      listener: opts.listener,
      timeouts,
      memoryLimitMB: async (spec) => (opts.memoryLimitMB ? opts.memoryLimitMB(spec) : null),
      engineEnv: async (spec) => (opts.engineEnv ? opts.engineEnv(spec.id) : {}),
      show: (id, status) => this.show(id, status),
    };
    this.crashes = new CrashWatch({
      ...power,
      isLeader: opts.isLeader,
      now: opts.now,
      spec: (id) => this.knownSpec(id),
      wanted: opts.wanted,
      lastCrashAt: async (id) => {
        const stored = await opts.lastCrashAt(id);
        const here = this.lastCrash.get(id) ?? null;
        return stored === null || here === null ? (stored ?? here) : Math.max(stored, here);
      },
      saveLastCrash: (id, at) => {
        this.lastCrash.set(id, at);
        opts.saveLastCrash(id, at);
      },
      locked: (id, action, fn) => this.act(id, action, null, fn),
      busy: (id) => this.isBusy(id),
      heldSince: (id, since) => this.locks.heldSince(id, since),
      actionGraceMs: opts.actionGraceMs,
    });
    this.power = power;
    this.stats = new StatsReader(
      {
        engine: (id) => this.engine(id),
        online: () => [...this.specs.keys()].filter((id) => this.state(id).status === 'ONLINE'),
        changed: (id) => this.emit(id),
      },
      opts.statsIntervalMs,
    );
    this.consoles = new ConsoleFollowers({
      engine: (id) => this.engine(id),
      changed: (id, signal) => {
        const key = this.engine(id)?.key;
        return this.view.until(() => this.engine(id)?.key !== key, HOUR_MS, signal).then(() => {});
      },
      line: (id, line) => {
        const players = announcedPlayers(line);
        if (players !== null) this.stats.players(id, players);
        opts.listener.console(id, line);
      },
    });
    this.leadership = new Leadership({
      isLeader: opts.isLeader,
      checkMs: opts.leaderCheckMs,
      sweepMs: Math.max(1000, opts.filesIdleMs / 2),
      converge: () => this.converge(),
      sweep: () => this.maintenance.sweep(),
    });
    void this.view.start().then(() => {
      this.listed = true;
      for (const id of this.specs.keys()) this.emit(id);
      this.leadership.ready();
    });
  }

  /** A change the informers saw: the server's status may be new, and the leader may have a crash to handle. */
  private changed(change: ViewChange) {
    const { serverId: id } = change;
    if (!this.specs.has(id)) void this.knownSpec(id);
    if (statusOf(this.view.gameServer(id)) === 'ONLINE') this.stats.seen(id);
    this.crashes.changed(change);
    this.emit(id);
  }

  /** The server's spec: from the registry at start or on an action, else read once (another replica made it). */
  private knownSpec(id: string): Promise<HostedServerSpec | null> {
    const known = this.specs.get(id);
    if (known) return Promise.resolve(known);
    let lookup = this.lookups.get(id);
    if (!lookup) {
      lookup = this.opts
        .specOf(id)
        .catch(() => null)
        .then((spec) => {
          this.lookups.delete(id);
          if (spec && !this.specs.has(id)) this.remember(spec);
          return spec;
        });
      this.lookups.set(id, lookup);
    }
    return lookup;
  }

  private remember(spec: HostedServerSpec) {
    this.specs.set(spec.id, spec);
    if (spec.lastCrashAt !== null && !this.lastCrash.has(spec.id)) this.lastCrash.set(spec.id, spec.lastCrashAt);
    this.emit(spec.id);
  }

  /** The running game engine of an ONLINE GameServer: its pod's control API and the pod's uid. */
  private engine(id: string): { control: ControlClient; key: string } | null {
    const spec = this.specs.get(id);
    if (!spec || statusOf(this.view.gameServer(id)) !== 'ONLINE') return null;
    const pod = this.view.pod(objectNames(id).gameServer);
    const ip = podIpOf(pod);
    if (!ip || !pod?.metadata?.uid) return null;
    return { control: new ControlClient(ip, this.settings.controlPort, spec.secret), key: pod.metadata.uid };
  }

  private show(id: string, status: ServerStatus | null) {
    if (status === null) this.overrides.delete(id);
    else this.overrides.set(id, status);
    this.emit(id);
  }

  private emit(id: string) {
    if (this.removed.has(id) && !this.locks.holder(id)) return;
    const state = this.state(id);
    const key = JSON.stringify(state);
    if (this.emitted.get(id) === key) return;
    this.emitted.set(id, key);
    this.opts.listener.status(id, state);
  }

  /**
   * Runs a power action under the server's lock (taken here at once: a second action is refused synchronously;
   * then the lease across replicas), showing `status` meanwhile, once the cluster has been listed.
   */
  private act<T>(id: string, action: string, status: ServerStatus | null, fn: () => Promise<T>): Promise<T> {
    if (this.removed.has(id) && action !== 'remove') throw new RuntimeBusyError('server is being deleted');
    const run = this.locks.run(id, action, async () => {
      await this.view.start();
      return fn();
    });
    if (status) this.show(id, status);
    const done = run.finally(() => {
      if (!this.locks.holder(id)) this.show(id, null);
    });
    this.running.set(id, done);
    done.then(
      () => this.running.get(id) === done && this.running.delete(id),
      () => this.running.get(id) === done && this.running.delete(id),
    );
    return done;
  }

  /**
   * Adopts what runs in the cluster (nothing is restarted), and on the leader brings the rest in line (converge).
   * What should run is read from the database when the leader converges, not taken from `_shouldRun`: a replica
   * may lead only later, and the wishes may have changed by then.
   */
  async reconcile(servers: HostedServerSpec[], _shouldRun: (id: string) => boolean): Promise<void> {
    for (const spec of servers) this.remember(spec);
    const done = (async () => {
      await this.view.start();
      this.listed = true;
      for (const spec of servers) this.emit(spec.id);
      if (this.opts.isLeader()) await this.leadership.lead();
    })();
    this.reattaching = done.catch(() => {});
    await done;
  }

  /**
   * The leader brings the cluster in line with what should run: GameServers that crashed while no leader watched
   * are handled, servers that should run and have none are started, those that should not are stopped; idle
   * maintenance pods go.
   */
  private async converge(): Promise<void> {
    this.crashes.sweep(this.view.allGameServers());
    await Promise.all(
      [...this.specs.values()].map(async (spec) => {
        if (this.isBusy(spec.id)) return;
        const want = await this.opts.wanted(spec.id).catch(() => null);
        const gs = this.view.gameServer(spec.id);
        try {
          if (want === true && !gs) await this.start(spec);
          else if (want === false && gs) await this.stop(spec.id);
        } catch {
          // Another action took the lock meanwhile, or the start failed (reported as such).
        }
      }),
    );
    await this.maintenance.sweep().catch(() => {});
  }

  settled(_id: string): Promise<void> {
    return this.reattaching ?? Promise.resolve();
  }

  isBusy(id: string) {
    return this.removed.has(id) || this.locks.holder(id) !== undefined;
  }

  isRemoved(id: string) {
    return this.removed.has(id);
  }

  claimed(id: string): Promise<void> {
    return this.locks.claimed(id);
  }

  start(spec: HostedServerSpec): Promise<void> {
    this.remember(spec);
    // As the local driver: a server running with no action under way is not started again.
    if (!this.isBusy(spec.id) && this.listed && statusOf(this.view.gameServer(spec.id)) === 'ONLINE')
      return Promise.reject(new RuntimeBusyError('already running'));
    return this.act(spec.id, 'start', 'STARTING', () => bringUp(this.power, spec));
  }

  stop(id: string): Promise<void> {
    return this.act(id, 'stop', this.view.gameServer(id) ? 'STOPPING' : null, () => takeDown(this.power, id));
  }

  restart(spec: HostedServerSpec, reason?: string): Promise<void> {
    this.remember(spec);
    return this.act(spec.id, 'restart', 'RESTARTING', async () => {
      if (reason && this.view.gameServer(spec.id))
        this.consoles.note(
          spec.id,
          `${new Date().toISOString()} [INFO] ${reason.endsWith('.') ? reason : `${reason}.`}`,
        );
      await takeDown(this.power, spec.id);
      await bringUp(this.power, spec);
    });
  }

  exclusive<T>(spec: HostedServerSpec, fn: () => Promise<T>, opts: { stopRunning?: boolean } = {}): Promise<T> {
    this.remember(spec);
    return this.act(spec.id, 'exclusive', null, async () => {
      if (this.view.gameServer(spec.id)) {
        if (opts.stopRunning === false) throw new RuntimeBusyError('server is running');
        this.show(spec.id, 'STOPPING');
        await takeDown(this.power, spec.id);
        this.show(spec.id, null);
      }
      return fn();
    });
  }

  async remove(spec: HostedServerSpec): Promise<void> {
    if (this.locks.holder(spec.id)) throw new RuntimeBusyError('another action is in progress');
    this.remember(spec);
    const names = objectNames(spec.id);
    await this.act(spec.id, 'remove', this.view.gameServer(spec.id) ? 'STOPPING' : null, async () => {
      this.removed.add(spec.id);
      await takeDown(this.power, spec.id);
      // This replica's file calls finish first; the pod goes before the volume it mounts.
      await this.maintenance.hold(spec.id);
      await this.kube.deleteSecret(names.secret);
      // The volume and its data go; the account's backups live in the backup store and stay.
      await this.kube.deleteVolumeClaim(names.volumeClaim);
    });
    this.consoles.close(spec.id);
    this.stats.forget(spec.id);
  }

  state(id: string): RuntimeState {
    if (!this.listed && this.specs.has(id)) return { status: 'UNKNOWN', players: 0, version: 'N/A' };
    const gs = this.view.gameServer(id);
    const status = this.overrides.get(id) ?? statusOf(gs);
    const pod = this.view.pod(objectNames(id).gameServer);
    const numbers = this.stats.get(id, pod?.metadata?.uid);
    const address = status === 'ONLINE' ? gameAddressOf(gs) : undefined;
    return {
      status,
      players: status === 'ONLINE' ? numbers.players : 0,
      version: numbers.version,
      ...(address ? { address } : {}),
    };
  }

  async sendCommand(id: string, command: string): Promise<void> {
    const control = this.control(id);
    if (!control) throw new RuntimeBusyError('server is not running');
    await control.request('POST', '/console', { command });
  }

  consoleHistory(id: string): string[] {
    return this.consoles.history(id);
  }

  watchConsole(id: string): ConsoleWatch {
    return this.consoles.watch(id);
  }

  control(id: string): ControlClient | null {
    return this.state(id).status === 'ONLINE' ? (this.engine(id)?.control ?? null) : null;
  }

  files(spec: HostedServerSpec): ServerFiles {
    this.remember(spec);
    return new ServerFiles(this.maintenance.endpoint(spec));
  }

  /**
   * Engines in the cluster outlive any replica, so they stay unless told to stop them all (CANOPY_STOP_SERVERS_ON_EXIT);
   * maintenance pods are left to the leader's sweep, since other replicas may be using them.
   */
  async shutdown({ stopServers }: { stopServers: boolean }): Promise<void> {
    this.leadership.stop();
    this.stats.stop();
    this.consoles.close();
    await Promise.all([...this.running.values()].map((p) => p.catch(() => {})));
    if (stopServers)
      await Promise.all(
        [...this.specs.keys()].filter((id) => this.view.gameServer(id)).map((id) => this.stop(id).catch(() => {})),
      );
    await this.view.stop();
  }
}
