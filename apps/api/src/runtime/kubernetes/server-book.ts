import type { ServerStatus } from '@canopy/contract';
import { ControlClient } from '../control-client.ts';
import type { HostedServerSpec, RuntimeListener, RuntimeState } from '../types.ts';
import { objectNames } from './names.ts';
import { gameAddressOf, podIpOf, statusOf } from './state.ts';
import type { StatsReader } from './stats.ts';
import type { ClusterView } from './watch.ts';

// What one replica's kubernetes driver knows of each server: its spec (its control secret), the status its own
// action shows meanwhile, and what it last told the listener. A server's status is the GameServer's as the view sees
// it, unless an action of this replica shows another (RESTARTING throughout a restart, say).

export interface ServerBookDeps {
  view: ClusterView;
  listener: RuntimeListener;
  controlPort: number;
  /** A server another replica created since this one started, read from the platform database. */
  specOf(id: string): Promise<HostedServerSpec | null>;
  /** Whether the server was removed here and no action of this replica is left on it (it reports nothing more). */
  gone(id: string): boolean;
}

/** The servers of one replica's driver and their reported statuses. */
export class ServerBook {
  private readonly deps: ServerBookDeps;
  private readonly specs = new Map<string, HostedServerSpec>();
  private readonly lookups = new Map<string, Promise<HostedServerSpec | null>>();
  private readonly overrides = new Map<string, ServerStatus>();
  private readonly emitted = new Map<string, string>();
  /** Set once the view listed the cluster: before that, a known server's status is UNKNOWN. */
  listed = false;
  /** Players and version, set by the driver (the reader needs the book first). */
  stats: StatsReader | null = null;

  constructor(deps: ServerBookDeps) {
    this.deps = deps;
  }

  ids(): string[] {
    return [...this.specs.keys()];
  }

  all(): HostedServerSpec[] {
    return [...this.specs.values()];
  }

  has(id: string): boolean {
    return this.specs.has(id);
  }

  /** Keeps the spec the registry handed over (at start, with an action) and reports the server's status. */
  remember(spec: HostedServerSpec) {
    this.specs.set(spec.id, spec);
    this.emit(spec.id);
  }

  /** The server's spec: as handed over, else read once (another replica created it). */
  spec(id: string): Promise<HostedServerSpec | null> {
    const known = this.specs.get(id);
    if (known) return Promise.resolve(known);
    let lookup = this.lookups.get(id);
    if (!lookup) {
      lookup = this.deps
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

  /** The running game engine of an ONLINE GameServer: its pod's control API, and the pod's uid naming that engine. */
  engine(id: string): { control: ControlClient; key: string } | null {
    const spec = this.specs.get(id);
    const { view } = this.deps;
    if (!spec || statusOf(view.gameServer(id)) !== 'ONLINE') return null;
    const pod = view.pod(objectNames(id).gameServer);
    const ip = podIpOf(pod);
    if (!ip || !pod?.metadata?.uid) return null;
    return { control: new ControlClient(ip, this.deps.controlPort, spec.secret), key: pod.metadata.uid };
  }

  /** Shows `status` while this replica's action runs; null: the GameServer's again. */
  show(id: string, status: ServerStatus | null) {
    if (status === null) this.overrides.delete(id);
    else this.overrides.set(id, status);
    this.emit(id);
  }

  state(id: string): RuntimeState {
    if (!this.listed && this.specs.has(id)) return { status: 'UNKNOWN', players: 0, version: 'N/A' };
    const { view } = this.deps;
    const gs = view.gameServer(id);
    const status = this.overrides.get(id) ?? statusOf(gs);
    const pod = view.pod(objectNames(id).gameServer);
    const numbers = this.stats?.get(id, pod?.metadata?.uid) ?? { players: 0, version: 'N/A' };
    const address = status === 'ONLINE' ? gameAddressOf(gs) : undefined;
    return {
      status,
      players: status === 'ONLINE' ? numbers.players : 0,
      version: numbers.version,
      ...(address ? { address } : {}),
    };
  }

  /** Tells the listener the server's state when it changed since the last time. */
  emit(id: string) {
    if (this.deps.gone(id)) return;
    const state = this.state(id);
    const key = JSON.stringify(state);
    if (this.emitted.get(id) === key) return;
    this.emitted.set(id, key);
    this.deps.listener.status(id, state);
  }
}
