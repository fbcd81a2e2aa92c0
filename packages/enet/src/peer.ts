// One remote client as the host sees it: its addresses and ids, what we sent that it has not acknowledged, what
// waits for room in its window, and the acknowledgements we owe it. The host (host.ts) drives it.

import { headerOverhead } from './datagram.ts';
import { SEND_FRAGMENT_SIZE, SEND_RELIABLE_SIZE } from './protocol.ts';
import { Reassembler, type ReassemblyLimits } from './reassembly.ts';

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
  /** Acknowledgements and retransmissions to put in the next datagrams. */
  readonly outgoing: Buffer[] = [];
  readonly reassembler: Reassembler;
  /** Per-channel reliable sequence numbers, the control channel (0xFF) among them. */
  private readonly sequences = new Uint16Array(256);

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
    return this.sequences[channelId] ?? 0;
  }

  /** The sequence the next reliable command on the channel will get. */
  peekSequence(channelId: number): number {
    return ((this.sequences[channelId] ?? 0) + 1) & 0xffff;
  }

  /** Room for one reliable command's payload in one of our (standard-header) datagrams. */
  reliableRoom(): number {
    return this.mtu - headerOverhead('standard') - SEND_RELIABLE_SIZE;
  }

  fragmentRoom(): number {
    return this.mtu - headerOverhead('standard') - SEND_FRAGMENT_SIZE;
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
