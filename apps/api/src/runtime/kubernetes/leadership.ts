// The leader's duties of the kubernetes driver, started and stopped as this replica gains and loses the scheduler's
// leadership (ADR 0036): one converge when it becomes the leader (what should run runs, what should not does not:
// the same as an api restart does with the local driver), then a sweep of idle maintenance pods now and then.
// Crashes are handled as they happen (crash.ts), also on the leader only.

import type { HostedServerSpec } from '../types.ts';
import type { GameServer } from './agones.ts';

const CHECK_MS = 1000;

/** What the leader's converge acts on. */
export interface ConvergeTarget {
  servers(): HostedServerSpec[];
  gameServers(): readonly GameServer[];
  hasGameServer(id: string): boolean;
  busy(id: string): boolean;
  /** Whether the server should run, read now (servers.desired_state). */
  wanted(id: string): Promise<boolean>;
  start(spec: HostedServerSpec): Promise<void>;
  stop(id: string): Promise<void>;
  crashes: { sweep(gameServers: readonly GameServer[]): void };
  sweep(): Promise<void>;
}

/**
 * The leader brings the cluster in line with what should run: GameServers that crashed while no leader watched are
 * handled, servers that should run and have none are started, those that should not are stopped; idle maintenance
 * pods go.
 */
export async function converge(target: ConvergeTarget): Promise<void> {
  target.crashes.sweep(target.gameServers());
  await Promise.all(
    target.servers().map(async (spec) => {
      if (target.busy(spec.id)) return;
      const want = await target.wanted(spec.id).catch(() => null);
      const running = target.hasGameServer(spec.id);
      try {
        if (want === true && !running) await target.start(spec);
        else if (want === false && running) await target.stop(spec.id);
      } catch {
        // Another action took the lock meanwhile, or the start failed (reported as such).
      }
    }),
  );
  await target.sweep().catch(() => {});
}

export class Leadership {
  private readonly opts: {
    isLeader: () => boolean;
    checkMs?: number;
    sweepMs: number;
    converge: () => Promise<void>;
    sweep: () => Promise<void>;
  };
  private readonly timer: NodeJS.Timeout;
  /** The cluster was listed: leading means something now. */
  private begun = false;
  private leading = false;
  private busy: Promise<void> | null = null;
  private swept = 0;

  constructor(opts: Leadership['opts']) {
    this.opts = opts;
    this.timer = setInterval(() => this.tick(), opts.checkMs ?? CHECK_MS);
    this.timer.unref();
  }

  /** The view has listed the cluster: duties may begin. */
  ready() {
    this.begun = true;
    this.tick();
  }

  /** This replica leads now (reconcile asks): converges, or resolves with the converge under way. */
  lead(): Promise<void> {
    this.begun = true;
    this.leading = true;
    return this.once(this.opts.converge);
  }

  private once(duty: () => Promise<void>): Promise<void> {
    if (this.busy) return this.busy;
    this.busy = duty()
      .catch(() => {})
      .finally(() => {
        this.busy = null;
        this.swept = Date.now();
      });
    return this.busy;
  }

  private tick() {
    if (!this.opts.isLeader()) {
      this.leading = false;
      return;
    }
    if (!this.begun) return;
    if (!this.leading) {
      this.leading = true;
      void this.once(this.opts.converge);
    } else if (!this.busy && Date.now() - this.swept >= this.opts.sweepMs) void this.once(this.opts.sweep);
  }

  stop() {
    clearInterval(this.timer);
  }
}
