// One remote client as the host sees it: its addresses and ids, what we sent that it has not acknowledged, what
// waits for room in its window, and the acknowledgements we owe it. The host (host.ts) drives it.

import { headerOverhead } from './datagram.ts';
import {
  encodeSendFragment,
  encodeSendReliable,
  encodeSendUnreliable,
  type HandshakeFields,
  SEND_FRAGMENT_SIZE,
  SEND_RELIABLE_SIZE,
  SEND_UNRELIABLE_SIZE,
  writeSendUnreliable,
} from './protocol.ts';
import { Reassembler, type ReassemblyLimits } from './reassembly.ts';

/** Reliable commands in flight per peer: far below the receiver's reliable windows (8 × 4096 sequences). */
const MAXIMUM_IN_FLIGHT = 1024;
const SESSION_MASK = 3;

/**
 * ENet's rule for a slot's new session ids (ours: incoming, outgoing): each moves on from the slot's last one
 * (or from what the client asks, when it asks), so a datagram of the slot's previous peer no longer matches.
 */
export function nextSessionIds(
  last: { incoming: number; outgoing: number },
  c: Pick<HandshakeFields, 'incomingSessionId' | 'outgoingSessionId'>,
): { incoming: number; outgoing: number } {
  let theirIncoming = ((c.incomingSessionId === 0xff ? last.outgoing : c.incomingSessionId) + 1) & SESSION_MASK;
  if (theirIncoming === last.outgoing) theirIncoming = (theirIncoming + 1) & SESSION_MASK;
  let theirOutgoing = ((c.outgoingSessionId === 0xff ? last.incoming : c.outgoingSessionId) + 1) & SESSION_MASK;
  if (theirOutgoing === last.incoming) theirOutgoing = (theirOutgoing + 1) & SESSION_MASK;
  return { incoming: theirOutgoing, outgoing: theirIncoming };
}

export type PeerState =
  /** VERIFY_CONNECT sent, its acknowledgement not yet seen. */
  | 'connecting'
  | 'connected'
  /** Disconnect once everything queued is acknowledged. */
  | 'disconnect-later'
  /** DISCONNECT sent; gone once it is acknowledged or times out. */
  | 'disconnecting';

/** A reliable command in flight. */
export interface InFlight {
  command: Buffer;
  firstSentAt: number;
  sentAt: number;
  rto: number;
}

export class Peer {
  state: PeerState = 'connecting';
  /** Whether the 'connect' event went out (a 'disconnect' follows only then). */
  announced = false;
  mtu = 1400;
  windowSize = 32_768;
  channelCount = 2;
  /** The client's own peer index: the peerID our headers carry. */
  outgoingPeerId = 0;
  connectId: Buffer = Buffer.alloc(4);
  lastReceivedAt = 0;
  lastSentAt = 0;
  /** When a 'disconnecting' peer is let go without the acknowledgement. */
  disconnectBy = 0;
  srtt = 0;
  rttVariance = 0;
  /** Reliable commands in flight, keyed `channel << 16 | sequence`, oldest send first. */
  readonly inFlight = new Map<number, InFlight>();
  inFlightBytes = 0;
  /** Reliable commands waiting for room in the window. */
  readonly waiting: Buffer[] = [];
  waitingBytes = 0;
  /** Acknowledgements, retransmissions and unreliable commands to put in the next datagrams. */
  readonly outgoing: Buffer[] = [];
  /**
   * Unreliable packets for the next datagrams: the payloads (one buffer shared by every peer it goes to) and,
   * three numbers each, their commands' channel, reliable and unreliable sequences. Written straight into the
   * datagram, so a relayed packet costs no allocation per peer.
   */
  readonly unreliable: Uint8Array[] = [];
  readonly unreliableFields: number[] = [];
  readonly reassembler: Reassembler;
  /** Per-channel reliable sequence numbers, the control channel (0xFF) among them. */
  private readonly sequences = new Uint16Array(256);
  /** Per-channel unreliable sequence numbers, counted from the channel's last reliable command. */
  private readonly unreliableSequences = new Uint16Array(256);

  readonly id: number;
  readonly address: string;
  readonly port: number;
  /** Session ids for this slot, moved on from its last use so stale datagrams are refused. */
  readonly incomingSessionId: number;
  readonly outgoingSessionId: number;

  constructor(
    slot: { id: number; address: string; port: number; incomingSessionId: number; outgoingSessionId: number },
    limits: ReassemblyLimits,
  ) {
    this.id = slot.id;
    this.address = slot.address;
    this.port = slot.port;
    this.incomingSessionId = slot.incomingSessionId;
    this.outgoingSessionId = slot.outgoingSessionId;
    this.reassembler = new Reassembler(limits);
  }

  nextSequence(channelId: number): number {
    this.sequences[channelId] = ((this.sequences[channelId] ?? 0) + 1) & 0xffff;
    this.unreliableSequences[channelId] = 0;
    return this.sequences[channelId] ?? 0;
  }

  /** The channel's last reliable sequence: the one an unreliable command follows. */
  lastSequence(channelId: number): number {
    return this.sequences[channelId] ?? 0;
  }

  /** The next unreliable sequence, or null when it would wrap (ENet then sends the packet reliably). */
  nextUnreliableSequence(channelId: number): number | null {
    const next = (this.unreliableSequences[channelId] ?? 0) + 1;
    if (next > 0xfffe) return null;
    this.unreliableSequences[channelId] = next;
    return next;
  }

  /** The sequence the next reliable command on the channel will get. */
  peekSequence(channelId: number): number {
    return ((this.sequences[channelId] ?? 0) + 1) & 0xffff;
  }

  /** Room for one reliable command's payload in one of our (standard-header) datagrams. */
  reliableRoom(): number {
    return this.mtu - headerOverhead('standard') - SEND_RELIABLE_SIZE;
  }

  unreliableRoom(): number {
    return this.mtu - headerOverhead('standard') - SEND_UNRELIABLE_SIZE;
  }

  fragmentRoom(): number {
    return this.mtu - headerOverhead('standard') - SEND_FRAGMENT_SIZE;
  }

  /** Moves waiting commands into flight (and into `outgoing`) while the window has room. */
  admit(now: number, minimumRto: number, initialRto: number): void {
    while (this.waiting.length > 0 && this.inFlight.size < MAXIMUM_IN_FLIGHT) {
      const command = this.waiting[0] as Buffer;
      if (this.inFlight.size > 0 && this.inFlightBytes + command.length > this.windowSize) break;
      this.waiting.shift();
      this.waitingBytes -= command.length;
      const key = ((command[1] ?? 0) << 16) | command.readUInt16BE(2);
      this.inFlight.set(key, { command, firstSentAt: now, sentAt: now, rto: this.rto(minimumRto, initialRto) });
      this.inFlightBytes += command.length;
      this.outgoing.push(command);
    }
  }

  /** One packet as reliable commands, numbered on the channel: one command, or fragments when it does not fit. */
  encodeReliable(channelId: number, data: Uint8Array): Buffer[] {
    if (data.length <= this.reliableRoom()) return [encodeSendReliable(channelId, this.nextSequence(channelId), data)];
    const fragmentLength = this.fragmentRoom();
    const fragmentCount = Math.ceil(data.length / fragmentLength);
    const startSequence = this.peekSequence(channelId);
    return Array.from({ length: fragmentCount }, (_, i) =>
      encodeSendFragment({
        channelId,
        sequence: this.nextSequence(channelId),
        startSequence,
        fragmentCount,
        fragmentNumber: i,
        totalLength: data.length,
        fragmentOffset: i * fragmentLength,
        payload: data.subarray(i * fragmentLength, (i + 1) * fragmentLength),
      }),
    );
  }

  /** Queues an unreliable packet (it fits one datagram: the caller checked `unreliableRoom`). */
  queueUnreliable(channelId: number, data: Uint8Array, unreliableSequence: number): void {
    this.unreliable.push(data);
    this.unreliableFields.push(channelId, this.lastSequence(channelId), unreliableSequence);
  }

  /**
   * Moves the queued unreliable commands, encoded, into `outgoing`: called before a reliable command is queued, so
   * they leave in the order they were sent (each names the reliable sequence before it; sent after the next
   * reliable one, a receiver would drop it as stale).
   */
  spillUnreliable(): void {
    const fields = this.unreliableFields;
    this.unreliable.forEach((payload, i) => {
      this.outgoing.push(
        encodeSendUnreliable(fields[i * 3] ?? 0, fields[i * 3 + 1] ?? 0, fields[i * 3 + 2] ?? 0, payload),
      );
    });
    this.unreliable.length = 0;
    fields.length = 0;
  }

  /**
   * Empties `outgoing`, then the unreliable queue, into datagrams of at most `room` command bytes each: `open`
   * gives a buffer for the byte count, `sent` takes it filled. Unreliable packets are left out when `dropUnreliable`.
   */
  pack(room: number, open: (bytes: number) => Buffer, sent: (datagram: Buffer) => void, dropUnreliable: boolean) {
    const commands = this.outgoing;
    const payloads = this.unreliable;
    const fields = this.unreliableFields;
    const queued = dropUnreliable ? 0 : payloads.length;
    let c = 0;
    let u = 0;
    while (c < commands.length || u < queued) {
      // Measure what fits (a lone command larger than the room still goes: fragments are cut to fit).
      let size = 0;
      let cEnd = c;
      let uEnd = u;
      for (let next = commands[cEnd]; next && (size === 0 || size + next.length <= room); next = commands[cEnd]) {
        size += next.length;
        cEnd++;
      }
      for (; uEnd < queued; uEnd++) {
        const next = SEND_UNRELIABLE_SIZE + (payloads[uEnd] as Uint8Array).length;
        if (size + next > room) break;
        size += next;
      }
      if (cEnd === c && uEnd === u) break; // cannot happen (each fits alone); never loop on it
      const out = open(size);
      let pos = out.length - size;
      for (; c < cEnd; c++) pos += (commands[c] as Buffer).copy(out, pos);
      for (; u < uEnd; u++) {
        const f = u * 3;
        pos = writeSendUnreliable(
          out,
          pos,
          fields[f] ?? 0,
          fields[f + 1] ?? 0,
          fields[f + 2] ?? 0,
          payloads[u] as Buffer,
        );
      }
      sent(out);
    }
    commands.length = 0;
    payloads.length = 0;
    fields.length = 0;
  }

  /** Queues again what is overdue, oldest first; how many, or 'timeout' when one waited past `timeoutMs`. */
  resendOverdue(now: number, timeoutMs: number): number | 'timeout' {
    const due: [number, InFlight][] = [];
    for (const entry of this.inFlight) {
      const o = entry[1];
      if (now - o.sentAt < o.rto) break; // kept in send order: the rest are not due either
      if (now - o.firstSentAt > timeoutMs) return 'timeout';
      due.push(entry);
    }
    for (const [key, o] of due) {
      this.inFlight.delete(key); // re-inserted last: the map stays in order of last send
      o.sentAt = now;
      o.rto = Math.min(o.rto * 2, 5000);
      this.inFlight.set(key, o);
      this.outgoing.push(o.command);
    }
    return due.length;
  }

  /** Retransmission time-out from the measured round trip (RFC 6298's estimate), at least `minimum`. */
  rto(minimum: number, initial: number): number {
    if (this.srtt === 0) return initial;
    return Math.max(minimum, Math.min(5000, this.srtt + 4 * this.rttVariance));
  }

  measure(rtt: number): void {
    if (this.srtt === 0) {
      this.srtt = rtt;
      this.rttVariance = rtt / 2;
    } else {
      this.rttVariance = 0.75 * this.rttVariance + 0.25 * Math.abs(this.srtt - rtt);
      this.srtt = 0.875 * this.srtt + 0.125 * rtt;
    }
  }
}
