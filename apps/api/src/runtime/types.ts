import type { ServerStatus } from '@canopy/contract';
import type { ControlClient } from './control-client.ts';
import type { ServerFiles } from './server-files.ts';

/** What a driver needs to run one hosted server. */
export interface HostedServerSpec {
  id: string;
  name: string;
  ownerId: string;
  gamePort: number;
  secret: string;
  /** When it last crashed (kept in the database so the loop guard survives api restarts). */
  lastCrashAt: number | null;
}

/** Where players reach a hosted server's game port. */
export interface GameAddress {
  host: string;
  port: number;
}

/** The live state of a hosted server as the runtime sees it. */
export interface RuntimeState {
  status: ServerStatus;
  players: number;
  version: string;
  /**
   * Where players reach it while ONLINE, when the runtime decides that (a Kubernetes node's address and the port
   * Agones allocated). Absent: the api's public address and the server's own game port (the local driver).
   */
  address?: GameAddress;
}

/** A browser's watch of one server's console on this replica (RuntimeDriver.watchConsole). */
export interface ConsoleWatch {
  /** Resolves once consoleHistory() holds what the engine kept (at once when the driver has it anyway). */
  ready: Promise<void>;
  /** Ends this watch; the driver stops following the engine's console when no watch is left. */
  end(): void;
}

/** An unexpected exit of an engine. */
export interface CrashReport {
  code: number | null;
  signal: string | null;
  lastLines: string[];
  /** False when the loop guard kept the server down (it crashed again within a minute). */
  restarting: boolean;
  /**
   * Set when the engine went over its memory ceiling (ADR 0029): the supervisor stopped it after it stayed over
   * (usedMB, what it held then), or V8 ended it at the heap limit the ceiling set (no usedMB).
   */
  memory?: { limitMB: number; usedMB?: number };
}

/** Things a driver tells the rest of the api. */
export interface RuntimeListener {
  status(id: string, state: RuntimeState): void;
  console(id: string, line: string): void;
  crash(id: string, report: CrashReport): void;
  /** A start that failed (timeout or exit before ready). */
  startFailed(id: string, reason: string, lastLines: string[]): void;
}

/** A refused power action (another one runs, or the server is in the wrong state). */
export class RuntimeBusyError extends Error {}

/**
 * Runs hosted servers somewhere (this machine, a cluster). Power methods take the server's power lock
 * synchronously, so a second action on the same server is refused at once, and resolve when done.
 */
export interface RuntimeDriver {
  /**
   * True when every api replica sees every server's changes through its own driver (kubernetes: each replica
   * watches the cluster), so status events must not also be relayed between replicas; false when only the
   * replica that runs an engine knows about it (local).
   */
  readonly clusterWide: boolean;
  /** After an api start: adopt engines still running from before, start those that should run. */
  reconcile(servers: HostedServerSpec[], shouldRun: (id: string) => boolean): Promise<void>;
  /**
   * Resolves once the server's re-attachment after an api start is decided (its engine adopted, or the
   * start or stop that follows under way); at once when none is under way.
   */
  settled(id: string): Promise<void>;
  /** True while a power action holds the server's lock. */
  isBusy(id: string): boolean;
  /** True once remove() began for the server (it never comes back): its files are being or were deleted. */
  isRemoved(id: string): boolean;
  start(spec: HostedServerSpec): Promise<void>;
  /**
   * Resolves once the power action this replica just began on the server also holds the server's lock across
   * replicas; rejects with RuntimeBusyError when another replica's action holds it. At once when no action
   * runs here, or when the lock is this process's alone (local).
   */
  claimed(id: string): Promise<void>;
  stop(id: string): Promise<void>;
  /** Restarts the server; `reason`, when given, is written to its console first (an [INFO] line before '> stop'). */
  restart(spec: HostedServerSpec, reason?: string): Promise<void>;
  /**
   * Takes the server's power lock (refused at once, like a power action, while another action holds it),
   * stops the engine if it runs (or refuses with RuntimeBusyError when `stopRunning` is false), runs `fn`
   * with the lock still held so that no start can race it (a restore swapping the database), then
   * releases the lock. The server is OFFLINE afterwards.
   */
  exclusive<T>(spec: HostedServerSpec, fn: () => Promise<T>, opts?: { stopRunning?: boolean }): Promise<T>;
  /** Stops the server (and its files-only engine, after its calls in flight) and deletes everything it stored. */
  remove(spec: HostedServerSpec): Promise<void>;
  state(id: string): RuntimeState;
  sendCommand(id: string, command: string): Promise<void>;
  consoleHistory(id: string): string[];
  /**
   * A browser on this replica follows the server's console: a driver whose engines run elsewhere follows the
   * engine's console stream while at least one watch is open (ref-counted), so lines reach this replica's
   * browsers without crossing the database. The local driver follows every engine anyway.
   */
  watchConsole(id: string): ConsoleWatch;
  /** The control API of a running engine, or null. */
  control(id: string): ControlClient | null;
  /**
   * The running engine's CPU (% of one core since the last call) and memory (bytes), for the history charts; null
   * while it does not run. Absent from a driver that cannot measure them (kubernetes: that needs the cluster's
   * metrics API), whose servers' history has players only.
   */
  usage?(id: string): { cpuPercent: number | null; memoryBytes: number | null } | null;
  /**
   * The server's files (config files, textures, its database's snapshot and restore, storage use), reached
   * only through an engine's control API (docs/engine-files-api.md): the running engine while the server is
   * ONLINE, else a files-only engine the driver starts on demand, stops after an idle while, and always stops
   * (waiting for its calls in flight) before the server's real engine starts, under the power lock. Calls made
   * while the real engine starts or stops are refused (RuntimeBusyError, a 409); after remove() began, too.
   */
  files(spec: HostedServerSpec): ServerFiles;
  /** The api is exiting: leave engines running for re-attach, or stop them all; files-only engines always stop. */
  shutdown(opts: { stopServers: boolean }): Promise<void>;
  /** Why the driver cannot run servers yet after reconcile (its cluster's API not reached), or undefined. */
  notReady(): string | undefined;
}
