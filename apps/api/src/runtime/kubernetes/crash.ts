import { constants } from 'node:os';
import { CRASH_LOOP_WINDOW_MS } from '../local/supervisor.ts';
import type { HostedServerSpec } from '../types.ts';
import type { GameServer } from './agones.ts';
import { objectNames } from './names.ts';
import { bringUp, lastLines, type PowerHost, takeDown } from './power.ts';
import { crashed, exitOf } from './state.ts';
import { serverIdOf, type ViewChange } from './watch.ts';

// Crash detection and the crash-loop guard, on the scheduler's leader only: every replica sees a GameServer turn
// Unhealthy (or vanish), but one must act on it, once. The leader reports the crash (the registry writes the
// activity entry), deletes the GameServer and makes it again, unless the server crashed within the last minute
// (the same guard as the local supervisor, with the crash time kept in the database).

/** A GameServer that vanished this long after a power action's lease ended is that action's doing, not a crash. */
export const ACTION_GRACE_MS = 15_000;

/** What the leader's crash handling needs of the driver. */
export interface CrashHost extends PowerHost {
  isLeader(): boolean;
  now(): number;
  /** The server, when this replica knows it (the registry's spec), else null. */
  spec(id: string): Promise<HostedServerSpec | null>;
  /** Whether the server should run (servers.desired_state), read now. */
  wanted(id: string): Promise<boolean>;
  lastCrashAt(id: string): Promise<number | null>;
  saveLastCrash(id: string, at: number): void;
  /** Runs `fn` under the server's power lock; throws RuntimeBusyError when an action holds it here or elsewhere. */
  locked(id: string, action: string, fn: () => Promise<void>): Promise<void>;
  busy(id: string): boolean;
  heldSince(id: string, since: number): Promise<boolean>;
  /** ACTION_GRACE_MS unless told otherwise (tests). */
  actionGraceMs?: number;
}

/** A signal's name (SIGKILL) from its number, as the local supervisor reports it. */
const signalName = (signal: number | null) =>
  signal === null ? null : (Object.entries(constants.signals).find(([, n]) => n === signal)?.[0] ?? `signal ${signal}`);

/** Watches the view for crashed and vanished GameServers and, while this replica leads, acts on them. */
export class CrashWatch {
  private readonly host: CrashHost;
  /** GameServers (by uid) whose crash was handled here, so an update of the same object is not a second crash. */
  private readonly handled = new Set<string>();
  /**
   * Crash times known here: the stored one may lag (its write is not awaited) or not be readable; the guard counts
   * the later of the two.
   */
  private readonly lastCrash = new Map<string, number>();
  /**
   * GameServers (by uid) whose engine told Agones it shuts down before anyone deleted them: an engine that stopped on
   * its own, which the local supervisor also counts as a stop (exit code 0), not a crash.
   */
  private readonly stoppedThemselves = new Set<string>();

  constructor(host: CrashHost) {
    this.host = host;
  }

  /** Called for every change of the view. */
  changed(change: ViewChange) {
    if (change.kind !== 'gameserver') return;
    const gs = change.object as GameServer;
    const uid = gs.metadata?.uid ?? '';
    // The end of a GameServer whose crash was handled is that handling's doing.
    if (change.verb === 'delete' && this.handled.delete(uid)) return;
    if (change.verb !== 'delete' && gs.status?.state === 'Shutdown' && !gs.metadata?.deletionTimestamp)
      this.stoppedThemselves.add(uid);
    if (change.verb === 'delete' && this.stoppedThemselves.delete(uid)) return;
    if (!this.host.isLeader() || this.host.busy(change.serverId)) return;
    if (change.verb === 'delete') void this.vanished(change.serverId).catch(() => {});
    else if (crashed(gs) && !this.handled.has(uid)) {
      this.handled.add(uid);
      void this.recover(change.serverId, gs).catch(() => {});
    }
  }

  /**
   * The leader's view on becoming leader (or after its start): GameServers that are Unhealthy already were not
   * acted on by a leader that died meanwhile.
   */
  sweep(gameServers: readonly GameServer[]) {
    for (const gs of gameServers) {
      const id = serverIdOf(gs);
      if (id && crashed(gs)) this.changed({ serverId: id, kind: 'gameserver', verb: 'update', object: gs });
    }
  }

  /** A GameServer deleted while no action held the server: a crash when the server should run. */
  private async vanished(id: string) {
    const since = Date.now() - (this.host.actionGraceMs ?? ACTION_GRACE_MS);
    if (await this.host.heldSince(id, since)) return;
    if (this.host.view.gameServer(id) || !(await this.host.wanted(id))) return;
    await this.recover(id, undefined);
  }

  /** Reports the crash once and restarts the server unless the loop guard keeps it down. */
  private async recover(id: string, gs: GameServer | undefined) {
    const spec = await this.host.spec(id);
    if (!spec) return;
    await this.host.locked(id, 'crash', async () => {
      // Another replica may have acted between the event and the lease: only the same crashed object, or still none.
      const now = this.host.view.gameServer(id);
      if (gs ? now?.metadata?.uid !== gs.metadata?.uid : now !== undefined) return;
      const pod = this.host.view.pod(objectNames(id).gameServer);
      const exit = exitOf(pod);
      const lines = await lastLines(this.host, id);
      const restarting = await this.countCrash(id);
      this.host.show(id, 'OFFLINE');
      const memoryMB = exit.oom ? await this.host.memoryLimitMB(spec).catch(() => null) : null;
      this.host.listener.crash(id, {
        code: exit.code,
        signal: signalName(exit.signal),
        lastLines: lines,
        restarting,
        memory: memoryMB === null ? undefined : { limitMB: memoryMB },
      });
      await takeDown(this.host, id);
      if (!restarting) return;
      this.host.show(id, 'STARTING');
      await bringUp(this.host, spec);
    });
  }

  /** A server handed over by the registry: its stored last crash seeds the memory here. */
  seen(spec: HostedServerSpec) {
    if (spec.lastCrashAt !== null && !this.lastCrash.has(spec.id)) this.lastCrash.set(spec.id, spec.lastCrashAt);
  }

  /** Counts a crash for the loop guard: true when the server may restart (none within the window before). */
  private async countCrash(id: string): Promise<boolean> {
    const now = this.host.now();
    const stored = await this.host.lastCrashAt(id).catch(() => null);
    const last = Math.max(stored ?? 0, this.lastCrash.get(id) ?? 0) || null;
    this.lastCrash.set(id, now);
    this.host.saveLastCrash(id, now);
    return last === null || now - last >= CRASH_LOOP_WINDOW_MS;
  }
}
