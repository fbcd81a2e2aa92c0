import { readFileSync } from 'node:fs';

/** Sockets one user may hold at once: plenty of tabs and devices, far from a descriptor problem. */
export const MAX_SOCKETS_PER_USER = 20;
/**
 * Upgrades from one address whose token is still being checked. Checks take milliseconds, so only a flood
 * reaches this; it keeps unauthenticated work from piling up (behind a proxy every browser shares one
 * address, which is why it is not smaller: a burst of reconnects after a restart must mostly get through).
 */
export const MAX_PENDING_PER_ADDRESS = 32;
/** An upgraded socket whose token check has not finished by then is closed (a stuck database, a slowloris). */
export const HANDSHAKE_TIMEOUT_MS = 10_000;
/** Over-cap sockets a user is refused with a clear close (4029) at once, then per second; past that HTTP 429. */
export const CLEAR_REFUSALS_BURST = 5;
export const CLEAR_REFUSALS_PER_SECOND = 0.5;
/** Descriptors assumed when the platform does not say (no /proc): the usual soft limit. */
export const FALLBACK_FD_LIMIT = 1024;

/** The soft limit on open files of this process (Linux /proc/self/limits); null when it cannot be read. */
export function openFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(read());
    if (!match?.[1]) return null;
    return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
  } catch {
    return null;
  }
}

/**
 * The most WebSockets the api holds for a descriptor limit: half of them. The other half stays in reserve
 * for what must not fail when a socket flood arrives: engine processes (pipes, control connections),
 * the database, HTTP requests, log and world files.
 */
export function defaultMaxSockets(fdLimit: number | null): number {
  return Math.max(1, Math.floor((fdLimit ?? FALLBACK_FD_LIMIT) / 2));
}

/** Why an upgrade is refused before any authentication work. */
export type UpgradeRefusal = 'busy' | 'too_many_pending';

/**
 * Counts every socket the gateway holds (authenticated or not) and the handshakes still pending per
 * address, and refuses an upgrade before it costs more than a descriptor. Pure bookkeeping: the
 * gateway calls `release` exactly once per admitted socket.
 */
export class SocketAdmission {
  private total = 0;
  private readonly pending = new Map<string, number>();
  private readonly maxTotal: number;
  private readonly maxPendingPerAddress: number;

  constructor(maxTotal: number, maxPendingPerAddress: number = MAX_PENDING_PER_ADDRESS) {
    this.maxTotal = maxTotal;
    this.maxPendingPerAddress = maxPendingPerAddress;
  }

  /** Sockets admitted and not yet released. */
  get size(): number {
    return this.total;
  }

  /** Admits a new upgrade from `address` as pending, or says why not. */
  admit(address: string): UpgradeRefusal | null {
    if (this.total >= this.maxTotal) return 'busy';
    const pending = this.pending.get(address) ?? 0;
    if (pending >= this.maxPendingPerAddress) return 'too_many_pending';
    this.total += 1;
    this.pending.set(address, pending + 1);
    return null;
  }

  /** The handshake from `address` is over (authenticated, refused or closed): it no longer counts as pending. */
  settle(address: string) {
    const pending = (this.pending.get(address) ?? 0) - 1;
    if (pending > 0) this.pending.set(address, pending);
    else this.pending.delete(address);
  }

  /** An admitted socket is gone. */
  release() {
    this.total = Math.max(0, this.total - 1);
  }
}

/**
 * The most inbound connections (HTTP and WebSocket together) for a descriptor limit: three quarters, and
 * always room for some HTTP beside a full set of sockets. The last quarter is never handed to clients.
 */
export function maxInboundConnections(fdLimit: number | null, maxSockets: number): number {
  return Math.max(Math.floor(((fdLimit ?? FALLBACK_FD_LIMIT) * 3) / 4), maxSockets + 64);
}
