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

/**
 * The in-process event bus: the runtime publishes, sockets subscribe. With several api replicas this is
 * where a broker (PostgreSQL LISTEN/NOTIFY or Redis) would plug in.
 */
export class EventBus extends EventEmitter<BusEvents> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}
