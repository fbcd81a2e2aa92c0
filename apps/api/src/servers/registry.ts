import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { activityRepo } from '../activity/activity.repo.ts';
import { ServerEventAlerts } from '../alerts/server-events.ts';
import { loadControlKey } from '../auth/secret.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { EventBus } from '../events/bus.ts';
import { operatorItemsVersion } from '../items/items-dat-version.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { memoryVerdict } from '../runtime/local/memory.ts';
import type { HostedServerSpec, RuntimeDriver, RuntimeListener, RuntimeState } from '../runtime/types.ts';
import { paidPlanActive } from '../users/profile.ts';
import { usersRepo } from '../users/users.repo.ts';
import { createRuntimeDriver } from './create-runtime.ts';
import { formatGameAddress } from './game-address.ts';
import { toSpec } from './hosting.ts';
import { type ServerRow, serversRepo } from './servers.repo.ts';

interface Known {
  name: string;
  ownerId: string;
}

/**
 * The hosted servers the api knows, their runtime, and the wiring from runtime events to the event
 * bus and the activity log. The name/owner cache keeps the public status feed off the database.
 */
export class ServerRegistry {
  readonly runtime: RuntimeDriver;
  private readonly known = new Map<string, Known>();
  /** Servers the crash-loop guard left offline, until something starts them again. */
  private readonly crashLooping = new Set<string>();
  /** Owners' Discord alerts from the runtime's reports (queued only). */
  private readonly alerts: ServerEventAlerts;
  private readonly db: Db;
  private readonly bus: EventBus;
  private readonly now: () => number;
  /** The host key engines' control secrets are derived from (ADR 0011). */
  private readonly controlKey: string;
  private readonly serversRoot: string;
  /** What was last written to the database of each server's live status, and that write (kept in order). */
  private readonly recorded = new Map<string, { key: string; write: Promise<void> }>();
  /** Pending while boot reads the servers, before the runtime has begun re-attaching them. */
  private loading: Promise<void> = Promise.resolve();
  private readonly metrics?: Metrics;
  /** True once boot() has re-attached (or started) every server that should run. */
  private booted = false;

  constructor(opts: {
    config: Config;
    db: Db;
    bus: EventBus;
    now: () => number;
    log: (msg: string) => void;
    /** The api's base URL as engines reach it (config.internalUrl, else where it listens); undefined before it listens. */
    internalUrl?: () => string | undefined;
    /** Whether this replica leads the scheduler now (ctx.leader, set once the api runs); unset: it always does. */
    isLeader?: () => boolean;
    /** Engine starts, failures and crashes are counted here (ADR 0045). */
    metrics?: Metrics;
  }) {
    this.db = opts.db;
    this.metrics = opts.metrics;
    const isLeader = opts.isLeader ?? (() => true);
    this.bus = opts.bus;
    this.now = opts.now;
    this.controlKey = loadControlKey(opts.config.controlKey, opts.config.dataDir);
    this.serversRoot = join(opts.config.dataDir, 'servers');
    this.alerts = new ServerEventAlerts({ db: opts.db, now: opts.now, log: opts.log });
    const listener: RuntimeListener = {
      status: (id, state) => {
        if (state.status !== 'OFFLINE') this.crashLooping.delete(id);
        this.recordLive(id, state);
        // Every replica sees a cluster-wide runtime's starts; the leader, which acts on them, counts them once.
        this.metrics?.serverStatus(id, state.status, !this.runtime.clusterWide || isLeader());
        const { status, players, version } = state;
        const emit = (k: Known) => {
          const event = { serverId: id, name: k.name, ownerId: k.ownerId, status, players, version };
          // A cluster-wide runtime shows every replica each change itself: relayed as well, it would arrive twice.
          if (this.runtime.clusterWide) this.bus.emitHere('status', event);
          else this.bus.emit('status', event);
        };
        const k = this.known.get(id);
        // Every replica sees a cluster-wide runtime's changes: the leader alone queues their alerts.
        if (k && (!this.runtime.clusterWide || isLeader())) this.alerts.status(id, k.name, status, players);
        if (k) emit(k);
        else if (this.runtime.clusterWide) void this.lookUp(id).then((found) => found && emit(found));
      },
      console: (id, line) => {
        const k = this.known.get(id);
        if (k) this.bus.emit('console', { serverId: id, ownerId: k.ownerId, line });
      },
      crash: (id, report) => {
        this.metrics?.crashed(report.memory ? 'memory' : 'exit');
        if (report.memory) {
          const verdict = memoryVerdict(this.known.get(id)?.name ?? id, report.memory.limitMB, report.restarting);
          const used = report.memory.usedMB === undefined ? 'its heap limit' : `${report.memory.usedMB} MB`;
          opts.log(`server ${verdict} (${used})`);
          if (!report.restarting) this.heldDownByGuard(id);
          this.alerts.crash(
            id,
            this.known.get(id)?.name ?? id,
            report.restarting,
            `out of memory, ${used}`,
            report.lastLines,
          );
          void this.system('Server out of memory', `${verdict} (${used}). Last lines:\n${report.lastLines.join('\n')}`);
          return;
        }
        const how = report.code !== null ? `exit code ${report.code}` : `signal ${report.signal ?? 'unknown'}`;
        const next = report.restarting ? 'restarting it' : 'it crashed again within a minute, so it stays offline';
        opts.log(`server ${this.known.get(id)?.name ?? id} crashed (${how}); ${next}`);
        if (!report.restarting) this.heldDownByGuard(id);
        this.alerts.crash(id, this.known.get(id)?.name ?? id, report.restarting, how, report.lastLines);
        void this.system(
          'Server crashed',
          `${this.known.get(id)?.name ?? id} exited unexpectedly (${how}); ${next}. Last lines:\n${report.lastLines.join('\n')}`,
        );
      },
      startFailed: (id, reason, lastLines) => {
        this.metrics?.startFailed();
        void this.system(
          'Server start failed',
          `${this.known.get(id)?.name ?? id}: ${reason}. Last lines:\n${lastLines.join('\n')}`,
        );
      },
    };
    this.runtime = createRuntimeDriver(opts.config, {
      db: opts.db,
      listener,
      now: opts.now,
      log: { info: opts.log, warn: opts.log },
      isLeader,
      items: (serverId) => this.engineItems(serverId, opts.config, opts.internalUrl),
      memoryLimitMB: (spec) => this.memoryLimitMB(spec, opts.config),
      specOf: async (id) => {
        const row = await serversRepo.findById(this.db, id);
        return row ? this.spec(row) : null;
      },
    });
    // A cluster-wide runtime handles crashes on the scheduler's leader only; the other replicas learn the guard's
    // verdict from its notice (relayed to them), so that their owners' dashboards say why the server is down.
    this.bus.on('notice', (notice) => {
      if (notice.kind !== 'crash_loop') return;
      for (const [id, k] of this.known) if (k.name === notice.name) this.crashLooping.add(id);
    });
  }

  /** A server another replica created since this one started (a cluster-wide runtime reports it): read, remembered. */
  private lookUp(id: string): Promise<Known | undefined> {
    return serversRepo.findById(this.db, id).then(
      (row) => {
        if (!row) return undefined;
        this.remember(row);
        return this.known.get(id);
      },
      () => undefined,
    );
  }

  /**
   * Where a starting engine fetches the operator's item database (docs/engine-files-api.md): the api's internal
   * route with the installed version's sha256. None while the bundled database is in use or the api's address is
   * not known yet; the engine then uses its own choice (its items.dat, else the bundled one).
   */
  private async engineItems(serverId: string, config: Config, internalUrl?: () => string | undefined) {
    const base = internalUrl?.();
    const current = base ? await operatorItemsVersion(config.itemsDir).catch(() => undefined) : undefined;
    if (!base || !current) return undefined;
    return { url: `${base}/api/internal/items-dat/${current.version}`, version: current.version, serverId };
  }

  /**
   * A server's memory ceiling by its owner's plan now (a collaborator's server runs on the owner's plan). When the
   * plan cannot be read (the database is down) the Paid ceiling applies: still a bound, and no paying tenant is
   * restarted for the outage.
   */
  private async memoryLimitMB(spec: HostedServerSpec, config: Config): Promise<number> {
    const { freeMB, paidMB } = config.engineMemory;
    const owner = await usersRepo.findById(this.db, spec.ownerId).catch(() => undefined);
    if (!owner) return paidMB;
    return paidPlanActive(owner, this.now()) ? paidMB : freeMB;
  }

  /**
   * Writes a status change (and the control URL and game address while ONLINE) to the server's row, for a gateway that runs as its
   * own process and has no runtime to ask (ADR 0039). Writes of one server go in order; a failed one is dropped
   * (the next change writes again).
   */
  private recordLive(id: string, { status, address }: RuntimeState) {
    const url = status === 'ONLINE' ? (this.runtime.control(id)?.base ?? null) : null;
    // Where players go when the runtime decides it (kubernetes); null for the local runtime, as before.
    const game = status === 'ONLINE' ? formatGameAddress(address) : null;
    const key = `${status} ${url} ${game}`;
    const previous = this.recorded.get(id);
    if (previous?.key === key) return;
    const write = (previous?.write ?? Promise.resolve())
      .then(() => serversRepo.setLive(this.db, id, status, url, game))
      .then(
        () => {},
        () => {},
      );
    this.recorded.set(id, { key, write });
  }

  private system(action: string, details: string) {
    return activityRepo
      .add(this.db, { action, actorType: 'System', actorName: 'System', details }, this.now())
      .catch(() => {});
  }

  /** Remembers the guard's verdict and tells the server's audience, whose panel then says why it is offline. */
  private heldDownByGuard(id: string) {
    this.crashLooping.add(id);
    const k = this.known.get(id);
    if (!k) return;
    void collaboratorsRepo
      .audience(this.db, id)
      .then((ids) => this.bus.emit('notice', { name: k.name, kind: 'crash_loop', audience: [k.ownerId, ...ids] }))
      .catch(() => {});
  }

  /** True while the crash-loop guard keeps the server offline (shown on the owner's dashboard). */
  isCrashLooping(id: string): boolean {
    return this.crashLooping.has(id);
  }

  /** Loads every server and brings the runtime in line with what should run. */
  async boot(): Promise<void> {
    let loaded = () => {};
    this.loading = new Promise((resolve) => {
      loaded = resolve;
    });
    try {
      const rows = await serversRepo.all(this.db);
      await this.dropStoredSecrets(rows);
      for (const r of rows) this.remember(r);
      const wanted = new Set(rows.filter((r) => r.desired_state === 'running').map((r) => r.id));
      const reconciled = this.runtime.reconcile(
        rows.map((r) => this.spec(r)),
        (id) => wanted.has(id),
      );
      loaded(); // from here the runtime's settled() knows about every server
      await reconciled;
      this.booted = true;
    } finally {
      loaded();
    }
  }

  /** Why the runtime cannot serve yet (for /readyz), or undefined once boot() finished and the driver is ready. */
  notReady(): string | undefined {
    if (!this.booted) return 'hosted servers are being re-attached';
    return this.runtime.notReady();
  }

  /**
   * Resolves once the runtime knows whether the server's engine from before an api restart still runs.
   * The api answers requests while it re-attaches; a power action decided before that would see a live
   * engine as OFFLINE and start a second one.
   */
  async settled(id: string): Promise<void> {
    await this.loading;
    await this.runtime.settled(id);
  }

  /** The runtime's view of a stored server, with its derived control secret. */
  spec(row: ServerRow) {
    return toSpec(row, this.controlKey);
  }

  /**
   * Secrets stored before ADR 0011 are dropped once no engine started with one can still be running
   * (its data directory has no engine.json); a running one keeps its secret until it stops.
   */
  private async dropStoredSecrets(rows: ServerRow[]) {
    for (const row of rows) {
      if (row.control_secret === '' || existsSync(join(this.serversRoot, row.id, 'engine.json'))) continue;
      await serversRepo.dropStoredSecret(this.db, row.id);
      row.control_secret = '';
    }
  }

  remember(row: ServerRow) {
    this.known.set(row.id, { name: row.name, ownerId: row.owner_id });
  }

  forget(id: string) {
    this.known.delete(id);
    this.crashLooping.delete(id);
    this.recorded.delete(id);
    this.alerts.forget(id);
    this.metrics?.serverGone(id);
  }

  /** The servers ONLINE in this replica's runtime, with their players (the history sampler's input). */
  online(): { id: string; players: number }[] {
    const online: { id: string; players: number }[] = [];
    for (const id of this.known.keys()) {
      const s = this.runtime.state(id);
      if (s.status === 'ONLINE') online.push({ id, players: s.players });
    }
    return online;
  }

  /** The public status feed: every hosted server with its live state. */
  feed() {
    return [...this.known.entries()].map(([id, k]) => {
      const s = this.runtime.state(id);
      return { name: k.name, status: s.status, players: s.players, version: s.version };
    });
  }
}
