import type { ServerStatus } from '@canopy/contract';
import type { ControlClient } from '../control-client.ts';
import { announcedPlayers } from '../local/players-line.ts';
import { ServerFiles } from '../server-files.ts';
import {
  type ConsoleWatch,
  type HostedServerSpec,
  RuntimeBusyError,
  type RuntimeDriver,
  type RuntimeState,
} from '../types.ts';
import { Actions } from './actions.ts';
import { ConsoleFollowers } from './console.ts';
import { CrashWatch } from './crash.ts';
import { MaintenancePods } from './files.ts';
import { KubeApi } from './kube.ts';
import { converge, Leadership } from './leadership.ts';
import { PowerLocks } from './lease.ts';
import { objectNames } from './names.ts';
import { type ObjectSettings, objectSettings } from './objects.ts';
import type { KubernetesDriverOptions } from './options.ts';
import { bringUp, type PowerHost, takeDown } from './power.ts';
import { ServerBook } from './server-book.ts';
import { statusOf } from './state.ts';
import { StatsReader } from './stats.ts';
import { ClusterView, type ViewChange } from './watch.ts';

const HOUR_MS = 3_600_000;
/** How long reconcile (the api's start) waits for the cluster to be listed. */
const LIST_WAIT_MS = 10_000;

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
  private readonly book: ServerBook;
  private readonly removed = new Set<string>();
  private readonly actions: Actions;
  private reattaching: Promise<void> | null = null;

  constructor(opts: KubernetesDriverOptions) {
    this.opts = opts;
    const { cluster, timeouts } = opts;
    this.kube = new KubeApi(cluster.kubeConfig, cluster.namespace);
    this.settings = objectSettings(cluster, timeouts);
    this.view = new ClusterView(cluster.kubeConfig, this.kube, opts.log, (change) => this.changed(change));
    this.locks = new PowerLocks({ db: opts.db, now: Date.now, log: opts.log, ttlMs: opts.leaseTtlMs });
    this.book = new ServerBook({
      view: this.view,
      listener: opts.listener,
      controlPort: cluster.controlPort,
      specOf: opts.specOf,
      gone: (id) => this.removed.has(id) && !this.locks.holder(id),
    });
    this.actions = new Actions({
      locks: this.locks,
      listed: async () => {
        if (!(await this.view.listedWithin(timeouts.startMs))) throw new Error('the Kubernetes API cannot be reached');
      },
      show: (id, status) => this.show(id, status),
      removed: this.removed,
    });
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
      spec: (id) => this.book.spec(id),
      wanted: opts.wanted,
      lastCrashAt: opts.lastCrashAt,
      saveLastCrash: opts.saveLastCrash,
      locked: (id, action, fn) => this.actions.run(id, action, null, fn),
      busy: (id) => this.isBusy(id),
      heldSince: (id, since) => this.locks.heldSince(id, since),
      actionGraceMs: opts.actionGraceMs,
    });
    this.power = power;
    this.stats = new StatsReader(
      {
        engine: (id) => this.book.engine(id),
        online: () => this.book.ids().filter((id) => this.state(id).status === 'ONLINE'),
        changed: (id) => this.book.emit(id),
      },
      opts.statsIntervalMs,
    );
    this.book.stats = this.stats;
    this.consoles = new ConsoleFollowers({
      engine: (id) => this.book.engine(id),
      changed: (id, signal) => {
        const key = this.book.engine(id)?.key;
        return this.view.until(() => this.book.engine(id)?.key !== key, HOUR_MS, signal).then(() => {});
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
      converge: () =>
        converge({
          servers: () => this.book.all(),
          gameServers: () => this.view.allGameServers(),
          hasGameServer: (id) => this.view.gameServer(id) !== undefined,
          busy: (id) => this.isBusy(id),
          wanted: opts.wanted,
          start: (spec) => this.start(spec),
          stop: (id) => this.stop(id),
          crashes: this.crashes,
          sweep: () => this.maintenance.sweep(),
        }),
      sweep: () => this.maintenance.sweep(),
    });
    void this.view.start().then(() => {
      this.book.listed = true;
      for (const id of this.book.ids()) this.book.emit(id);
      this.leadership.ready();
    });
  }

  /** A change the informers saw: the server's status may be new, and the leader may have a crash to handle. */
  private changed(change: ViewChange) {
    const { serverId: id } = change;
    if (!this.book.has(id)) void this.book.spec(id);
    if (statusOf(this.view.gameServer(id)) === 'ONLINE') this.stats.seen(id);
    this.crashes.changed(change);
    this.book.emit(id);
  }

  /** Keeps the spec the registry handed over; its last crash seeds the loop guard's memory here. */
  private remember(spec: HostedServerSpec) {
    this.crashes.seen(spec);
    this.book.remember(spec);
  }

  private show(id: string, status: ServerStatus | null) {
    this.book.show(id, status);
  }

  /**
   * Adopts what runs in the cluster (nothing is restarted), and on the leader brings the rest in line (converge).
   * What should run is read from the database when the leader converges, not taken from `_shouldRun`: a replica
   * may lead only later, and the wishes may have changed by then.
   */
  async reconcile(servers: HostedServerSpec[], _shouldRun: (id: string) => boolean): Promise<void> {
    for (const spec of servers) this.remember(spec);
    const done = (async () => {
      // The api's start does not wait for a cluster that cannot be reached: its servers show UNKNOWN until the
      // informers list it (they keep trying), and what follows a listing happens then (the constructor's start).
      if (!(await this.view.listedWithin(this.opts.listWaitMs ?? LIST_WAIT_MS))) {
        this.opts.log.warn('kubernetes API not reachable yet: servers show UNKNOWN until it is listed');
        return;
      }
      this.book.listed = true;
      for (const spec of servers) this.book.emit(spec.id);
      if (this.opts.isLeader()) await this.leadership.lead();
    })();
    this.reattaching = done.catch(() => {});
    await done;
  }

  settled(_id: string): Promise<void> {
    return this.reattaching ?? Promise.resolve();
  }

  /**
   * Not ready until the informers have listed the cluster once (every status is UNKNOWN before). Ready for good
   * afterwards: a Kubernetes API that goes away later is the same for every replica, and taking them all out of
   * the Service would cut the panel too, while it still serves accounts, settings and the cached statuses.
   */
  notReady(): string | undefined {
    return this.book.listed ? undefined : 'the Kubernetes API has not been reached yet';
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
    if (!this.isBusy(spec.id) && this.book.listed && statusOf(this.view.gameServer(spec.id)) === 'ONLINE')
      return Promise.reject(new RuntimeBusyError('already running'));
    return this.actions.run(spec.id, 'start', 'STARTING', () => bringUp(this.power, spec));
  }

  stop(id: string): Promise<void> {
    return this.actions.run(id, 'stop', this.view.gameServer(id) ? 'STOPPING' : null, () => takeDown(this.power, id));
  }

  restart(spec: HostedServerSpec, reason?: string): Promise<void> {
    this.remember(spec);
    return this.actions.run(spec.id, 'restart', 'RESTARTING', async () => {
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
    return this.actions.run(spec.id, 'exclusive', null, async () => {
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
    await this.actions.run(spec.id, 'remove', this.view.gameServer(spec.id) ? 'STOPPING' : null, async () => {
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
    return this.book.state(id);
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
    return this.state(id).status === 'ONLINE' ? (this.book.engine(id)?.control ?? null) : null;
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
    await this.actions.idle();
    if (stopServers)
      await Promise.all(
        this.book
          .ids()
          .filter((id) => this.view.gameServer(id))
          .map((id) => this.stop(id).catch(() => {})),
      );
    await this.view.stop();
  }
}
