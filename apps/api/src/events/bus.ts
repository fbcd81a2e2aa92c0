import { EventEmitter } from 'node:events';
import type { ServerStatus } from '@canopy/contract';

/** A hosted server's status changed. */
export interface StatusEvent {
  serverId: string;
  name: string;
  ownerId: string;
  status: ServerStatus;
  players: number;
  version: string;
}

/** A console line of a hosted server. */
export interface ConsoleEvent {
  serverId: string;
  ownerId: string;
  line: string;
}

/**
 * Something the profile says about a server changed without a request (the scheduler, the crash-loop
 * guard). The audience is resolved by the sender, because a deleted server has no collaborators left.
 */
export interface NoticeEvent {
  name: string;
  kind: 'expired' | 'deleted' | 'crash_loop';
  audience: string[];
}

/** An admin banned or unbanned a user: their sockets are told, so their panel refetches the profile. */
export interface AccountEvent {
  userId: string;
  kind: 'banned' | 'unbanned';
}

interface BusEvents {
  status: [StatusEvent];
  console: [ConsoleEvent];
  notice: [NoticeEvent];
  account: [AccountEvent];
}

/** The events other api replicas must see too; console lines stay local (ADR 0036). */
export const SHARED_EVENTS = ['status', 'notice', 'account'] as const;
export type SharedEvent = (typeof SHARED_EVENTS)[number];
const shared = new Set<string>(SHARED_EVENTS);

/** Carries a shared event to the other replicas (events/pg-relay.ts). */
export type Relay = <K extends SharedEvent>(event: K, payload: BusEvents[K][0]) => void;

/**
 * The in-process event bus: the runtime publishes, sockets subscribe. With PostgreSQL a relay is attached and
 * every shared event emitted here also goes to the other replicas; theirs come back through `deliver`.
 */
export class EventBus extends EventEmitter<BusEvents> {
  relay?: Relay;

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  override emit<K extends keyof BusEvents>(event: K, ...args: BusEvents[K]): boolean {
    if (this.relay && shared.has(event)) this.relay(event as SharedEvent, args[0] as BusEvents[SharedEvent][0]);
    return super.emit(event as keyof BusEvents, ...(args as BusEvents[keyof BusEvents])) as boolean;
  }

  /** Emits an event that came from another replica to this replica's subscribers only (never relayed back). */
  deliver<K extends SharedEvent>(event: K, payload: BusEvents[K][0]): void {
    super.emit(event as keyof BusEvents, ...([payload] as BusEvents[keyof BusEvents]));
  }

  /**
   * Emits a shared event to this replica's subscribers only, never relayed: one every replica sees for itself, such
   * as the status of a cluster-wide runtime (each replica watches the cluster, ADR 0043), which relaying would double.
   */
  emitHere<K extends SharedEvent>(event: K, payload: BusEvents[K][0]): void {
    this.deliver(event, payload);
  }
}
