import type { ServerStatus } from '@canopy/contract';
import { alertsRepo } from './alerts.repo.ts';
import { type AlertDeps, notifyServer } from './notify.ts';

/** Before these, ONLINE is a start; an engine re-adopted after the api restarted reports ONLINE from nothing. */
const STARTING: (ServerStatus | undefined)[] = ['STARTING', 'RESTARTING'];
const RUNNING: (ServerStatus | undefined)[] = ['ONLINE', 'STOPPING'];

/**
 * Turns the runtime's reports into owners' alerts (started, stopped, crashed, crash loop, player peak). Kept apart
 * from the registry, which calls it; it only queues (notify.ts), so the runtime's listener never waits on it.
 */
export class ServerEventAlerts {
  private readonly deps: AlertDeps;
  private readonly last = new Map<string, ServerStatus>();
  /** Servers whose last stop was a crash (alerted as such): their OFFLINE is not a "stopped". */
  private readonly crashed = new Set<string>();
  /** The highest player count seen per server in this process, so that only a rise asks the database. */
  private readonly seenPeak = new Map<string, number>();

  constructor(deps: AlertDeps) {
    this.deps = deps;
  }

  /** A status report of the runtime (also sent when only the player count changed). */
  status(id: string, name: string, status: ServerStatus, players: number) {
    const before = this.last.get(id);
    this.last.set(id, status);
    if (status === 'ONLINE' && STARTING.includes(before)) {
      this.crashed.delete(id);
      void notifyServer(this.deps, id, 'started', { serverName: name, text: `${name} is online.` });
    } else if (status === 'OFFLINE' && RUNNING.includes(before) && !this.crashed.has(id)) {
      void notifyServer(this.deps, id, 'stopped', { serverName: name, text: `${name} was stopped.` });
    }
    if (status === 'ONLINE' && players > (this.seenPeak.get(id) ?? 0)) {
      this.seenPeak.set(id, players);
      void this.peak(id, name, players);
    }
  }

  /** A crash: restarted (crashed), or left offline by the crash-loop guard (crash loop). */
  crash(id: string, name: string, restarting: boolean, why: string, lastLines: string[]) {
    this.crashed.add(id);
    const event = restarting ? 'crashed' : 'crash_loop';
    const text = restarting
      ? `${name} exited unexpectedly (${why}) and is being restarted.`
      : `${name} crashed again within a minute (${why}), so it stays offline until it is started again.`;
    void notifyServer(this.deps, id, event, { serverName: name, text, lines: lastLines });
  }

  /** The server is gone from this runtime: forget what was remembered of it. */
  forget(id: string) {
    this.last.delete(id);
    this.crashed.delete(id);
    this.seenPeak.delete(id);
  }

  private async peak(id: string, name: string, players: number) {
    try {
      if (!(await alertsRepo.beatPeak(this.deps.db, id, players))) return;
    } catch {
      return; // a lost peak is not worth an error: the next rise tries again
    }
    const text = `${players} player${players === 1 ? '' : 's'} online: the most since alerts were set.`;
    await notifyServer(this.deps, id, 'player_peak', { serverName: name, text });
  }
}
