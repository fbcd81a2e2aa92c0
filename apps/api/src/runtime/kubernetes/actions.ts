import type { ServerStatus } from '@canopy/contract';
import { RuntimeBusyError } from '../types.ts';
import type { PowerLocks } from './lease.ts';

/** What running an action needs of the driver. */
export interface ActionDeps {
  locks: PowerLocks;
  /** Resolves once the view listed the cluster (an action decides on what it shows). */
  listed(): Promise<void>;
  show(id: string, status: ServerStatus | null): void;
  removed: ReadonlySet<string>;
}

/** The power actions under way on this replica, each under its server's power lock (lease.ts). */
export class Actions {
  private readonly deps: ActionDeps;
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(deps: ActionDeps) {
    this.deps = deps;
  }

  /**
   * Runs `fn` under the server's lock (taken here at once: a second action is refused synchronously; then the lease
   * across replicas), showing `status` meanwhile; the GameServer's status shows again once no action holds it.
   */
  run<T>(id: string, action: string, status: ServerStatus | null, fn: () => Promise<T>): Promise<T> {
    const { locks, show } = this.deps;
    if (this.deps.removed.has(id) && action !== 'remove') throw new RuntimeBusyError('server is being deleted');
    const run = locks.run(id, action, async () => {
      await this.deps.listed();
      return fn();
    });
    if (status) show(id, status);
    const done = run.finally(() => {
      if (!locks.holder(id)) show(id, null);
    });
    this.running.set(id, done);
    const forget = () => {
      if (this.running.get(id) === done) this.running.delete(id);
    };
    done.then(forget, forget);
    return done;
  }

  /** Resolves once every action under way has ended, however. */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()].map((p) => p.catch(() => {})));
  }
}
