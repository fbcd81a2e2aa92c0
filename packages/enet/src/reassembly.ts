// Incoming delivery: reliable commands in sequence order per channel (held back until the gap fills, duplicates
// dropped), fragments joined into their packet, unsequenced payloads passed straight on, and unreliable ones passed
// on only while they are current: after the reliable command they name, and newer than the last one delivered.

import type { ParsedCommand } from './protocol.ts';

/** ENet's own ceiling on one packet; a larger fragment total is refused rather than allocated. */
export const MAXIMUM_PACKET_SIZE = 32 * 1024 * 1024;
const MAXIMUM_FRAGMENT_COUNT = 1024 * 1024;
/** Sequence numbers further ahead than this are not buffered (ENet's reliable windows span about this much). */
const REORDER_WINDOW = 0x8000 - 1;

interface Assembly {
  total: number;
  count: number;
  received: Set<number>;
  data: Buffer;
}

type Fragment = Extract<ParsedCommand, { kind: 'fragment' }>;

/** What one peer may make us hold: a server facing strangers sets these far below the client's defaults. */
export interface ReassemblyLimits {
  /** Largest packet a fragment series may announce. */
  maxPacketSize?: number;
  /** Reliable commands held back waiting for a gap to fill, per channel. */
  maxHeld?: number;
  /** Fragment series being assembled at once. */
  maxAssemblies?: number;
}

/** Per-channel ordering and fragment assembly for one peer. */
export class Reassembler {
  private readonly expected = new Map<number, number>();
  /** Per channel: the last unreliable sequence delivered since the last reliable command. */
  private readonly lastUnreliable = new Map<number, number>();
  private readonly held = new Map<number, Map<number, ParsedCommand>>();
  private readonly assemblies = new Map<string, Assembly>();
  private readonly maxPacketSize: number;
  private readonly maxHeld: number;
  private readonly maxAssemblies: number;

  constructor(limits: ReassemblyLimits = {}) {
    this.maxPacketSize = Math.min(limits.maxPacketSize ?? MAXIMUM_PACKET_SIZE, MAXIMUM_PACKET_SIZE);
    this.maxHeld = limits.maxHeld ?? REORDER_WINDOW;
    this.maxAssemblies = limits.maxAssemblies ?? Number.POSITIVE_INFINITY;
  }

  /** Takes one received data command; returns the packets it completes, in order. */
  accept(c: ParsedCommand): Buffer[] {
    const reliable = (c.flags & 0x80) !== 0;
    if (!reliable) {
      if (c.kind === 'unsequenced') return [c.payload];
      if (c.kind === 'unreliable') return this.current(c) ? [c.payload] : [];
      if (c.kind === 'fragment') {
        const done = this.assemble(`u${c.channelId}:${c.startSequence}`, c);
        return done ? [done] : [];
      }
      return [];
    }
    const channel = c.channelId;
    const expected = this.expected.get(channel) ?? 1;
    const ahead = (c.reliableSequence - expected) & 0xffff;
    if (ahead > REORDER_WINDOW) return []; // already delivered: a retransmission whose ack was lost
    let held = this.held.get(channel);
    if (!held) {
      held = new Map();
      this.held.set(channel, held);
    }
    // Past the limit only the command that fills the gap is taken; the sender retransmits the rest.
    if (held.size >= this.maxHeld && ahead !== 0) return [];
    held.set(c.reliableSequence, c);
    const out: Buffer[] = [];
    let next = expected;
    for (let command = held.get(next); command; command = held.get(next)) {
      held.delete(next);
      next = (next + 1) & 0xffff;
      if (command.kind === 'reliable')
        out.push(command.payload); // a view of its datagram, which nothing reuses
      else if (command.kind === 'fragment') {
        const done = this.assemble(`r${channel}:${command.startSequence}`, command);
        if (done) out.push(done);
      }
    }
    if (next !== expected) this.lastUnreliable.delete(channel);
    this.expected.set(channel, next);
    return out;
  }

  /**
   * ENet's rule, simplified: an unreliable command is delivered when the reliable command it follows was the
   * last one delivered and it is newer than the last unreliable one. One that must wait for its reliable command
   * is dropped rather than held (it is unreliable: a newer one follows).
   */
  private current(c: Extract<ParsedCommand, { kind: 'unreliable' }>): boolean {
    return this.currentUnreliable(c.channelId, c.reliableSequence, c.unreliableSequence);
  }

  /** The same rule from the command's fields (a receiver reading unreliable commands in place). */
  currentUnreliable(channelId: number, reliableSequence: number, unreliableSequence: number): boolean {
    const lastReliable = ((this.expected.get(channelId) ?? 1) - 1) & 0xffff;
    if (reliableSequence !== lastReliable) return false;
    if (unreliableSequence <= (this.lastUnreliable.get(channelId) ?? 0)) return false;
    this.lastUnreliable.set(channelId, unreliableSequence);
    return true;
  }

  private assemble(key: string, f: Fragment): Buffer | null {
    if (
      f.fragmentCount === 0 ||
      f.fragmentCount > MAXIMUM_FRAGMENT_COUNT ||
      f.fragmentNumber >= f.fragmentCount ||
      f.totalLength > this.maxPacketSize ||
      f.fragmentOffset >= f.totalLength ||
      f.payload.length > f.totalLength - f.fragmentOffset
    ) {
      return null;
    }
    let a = this.assemblies.get(key);
    if (a && (a.total !== f.totalLength || a.count !== f.fragmentCount)) return null;
    if (!a) {
      if (this.assemblies.size >= this.maxAssemblies) return null;
      a = { total: f.totalLength, count: f.fragmentCount, received: new Set(), data: Buffer.alloc(f.totalLength) };
      this.assemblies.set(key, a);
    }
    if (a.received.has(f.fragmentNumber)) return null;
    a.received.add(f.fragmentNumber);
    f.payload.copy(a.data, f.fragmentOffset);
    if (a.received.size < a.count) return null;
    this.assemblies.delete(key);
    return a.data;
  }
}
