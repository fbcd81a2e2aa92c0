import type { Server } from 'node:tls';
import type { HandshakeLimits } from '../../config/http-limits.ts';
import { TokenBucket } from '../../ws/rate-limit.ts';

/** Handshakes under way at once across all addresses: past this every new connection waits for a free slot. */
export const MAX_PENDING_HANDSHAKES = 512;
/** Addresses whose bucket is remembered; a flood of addresses evicts the oldest (which then start full again). */
const MAX_ADDRESSES = 50_000;

/** Why a new TLS connection is refused before its handshake. */
export type HandshakeRefusal = 'rate' | 'pending' | 'busy';

/**
 * Which new TLS connections may start a handshake (ADR 0032): per address a token bucket over the connection
 * rate (every attempt takes a token, refused ones too, so a flood keeps itself out) and a cap on handshakes still
 * under way, and a cap across all addresses. Pure bookkeeping: `settle` is called once per admitted connection.
 */
export class HandshakeAdmission {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly pending = new Map<string, number>();
  private pendingTotal = 0;
  private readonly limits: HandshakeLimits;
  private readonly now: () => number;

  constructor(limits: HandshakeLimits, now: () => number = () => performance.now()) {
    this.limits = limits;
    this.now = now;
  }

  /** Admits a new connection from `address` as a pending handshake, or says why not. */
  admit(address: string): HandshakeRefusal | null {
    if (!this.bucketOf(address).take()) return 'rate';
    const pending = this.pending.get(address) ?? 0;
    if (pending >= this.limits.pendingPerIp) return 'pending';
    if (this.pendingTotal >= MAX_PENDING_HANDSHAKES) return 'busy';
    this.pending.set(address, pending + 1);
    this.pendingTotal++;
    return null;
  }

  /** An admitted connection finished its handshake or closed. */
  settle(address: string): void {
    const left = (this.pending.get(address) ?? 0) - 1;
    if (left > 0) this.pending.set(address, left);
    else this.pending.delete(address);
    this.pendingTotal = Math.max(0, this.pendingTotal - 1);
  }

  /** Forgets the buckets that have refilled (nobody gains a token by it); called now and then. */
  sweep(): void {
    for (const [address, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(address);
  }

  private bucketOf(address: string): TokenBucket {
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= MAX_ADDRESSES) this.sweep();
      // Insertion order is first-seen order: the oldest address goes first.
      while (this.buckets.size >= MAX_ADDRESSES) {
        const oldest = this.buckets.keys().next().value;
        if (oldest === undefined) break;
        this.buckets.delete(oldest);
      }
      bucket = new TokenBucket(this.limits.burst, this.limits.perSecond, this.now);
      this.buckets.set(address, bucket);
    }
    return bucket;
  }
}

/**
 * Applies `admission` to a TLS server: a refused connection is destroyed on the 'connection' event, which fires
 * before the ClientHello is read, so it costs no handshake work. A handshake is pending from its connection until
 * 'secureConnection' or its close. Returns the sweep timer's stop.
 */
export function limitHandshakes(server: Server, admission: HandshakeAdmission): () => void {
  // The TCP connection under a TLS socket is the same address and port: the key from one to the other.
  const handshaking = new Map<string, () => void>();
  server.on('connection', (socket) => {
    // Already refused by another guard (the per-address socket cap): nothing to count.
    if (socket.destroyed || !socket.remoteAddress) return;
    const address = socket.remoteAddress;
    if (admission.admit(address)) return void socket.destroy();
    const key = `${address}|${socket.remotePort}`;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      if (handshaking.get(key) === settle) handshaking.delete(key);
      admission.settle(address);
    };
    handshaking.set(key, settle);
    socket.once('close', settle);
  });
  server.on('secureConnection', (socket) => handshaking.get(`${socket.remoteAddress}|${socket.remotePort}`)?.());
  const sweeper = setInterval(() => admission.sweep(), 10_000);
  sweeper.unref();
  return () => clearInterval(sweeper);
}
