// How a host's datagrams leave: packed from a peer's queues, sealed with the standard header and checksum, and
// handed to the socket. Kept apart from host.ts, which decides what to send and when.

import type { Socket } from 'node:dgram';
import { allocateDatagram, headerOverhead, MAXIMUM_MTU, sealDatagram } from './datagram.ts';
import type { Peer } from './peer.ts';
import { sendsAtOnce } from './udp-socket.ts';

/** Bytes the socket may hold unsent (the kernel's buffer is full) before unreliable packets are left out. */
const MAXIMUM_SOCKET_QUEUE = 1024 * 1024;
const OVERHEAD = headerOverhead('standard');

export class Outbox {
  private readonly socket: Socket;
  private readonly compress: boolean;
  /** The host's counters, which this adds to. */
  private readonly stats: { datagramsOut: number; unreliableDropped: number };
  /** Where datagrams are packed, on a socket that sends at once (see send). */
  private scratch = Buffer.allocUnsafeSlow(MAXIMUM_MTU);
  private readonly reuseScratch: boolean;

  constructor(socket: Socket, compress: boolean, stats: { datagramsOut: number; unreliableDropped: number }) {
    this.socket = socket;
    this.compress = compress;
    this.stats = stats;
    this.reuseScratch = sendsAtOnce(socket);
  }

  /** Writes everything the peer has queued, packed into datagrams of its MTU. */
  flush(p: Peer, now: number): void {
    const congested = p.unreliable.length > 0 && this.socket.getSendQueueSize() > MAXIMUM_SOCKET_QUEUE;
    if (congested) this.stats.unreliableDropped += p.unreliable.length;
    p.pack(
      p.mtu - OVERHEAD,
      (bytes) => (this.reuseScratch ? this.scratch.subarray(0, OVERHEAD + bytes) : allocateDatagram('standard', bytes)),
      (datagram) => this.send(p, datagram, now),
      congested,
    );
  }

  /** Sends one command in a datagram of its own (a DISCONNECT that goes out before the slot is freed). */
  sendAlone(p: Peer, command: Buffer, now: number): void {
    const datagram = allocateDatagram('standard', command.length);
    command.copy(datagram, OVERHEAD);
    this.send(p, datagram, now);
  }

  private send(p: Peer, datagram: Buffer, now: number): void {
    const sealed = sealDatagram(
      {
        kind: 'standard',
        peerId: p.outgoingPeerId,
        sessionId: p.outgoingSessionId,
        sentTime: now,
        connectId: p.connectId,
        compress: this.compress,
      },
      datagram,
    );
    p.lastSentAt = now;
    this.stats.datagramsOut++;
    // No callback: a failed send is a lost datagram (reliable commands are sent again), and a callback costs a
    // tick per datagram.
    this.socket.send(sealed, p.port, p.address);
    // Datagrams are built in one scratch buffer (on a socket that sends at once): a busy world sends tens of
    // thousands a second, and a fresh buffer each is most of the engine's garbage. The kernel copies a datagram it
    // takes at once; one it could not take waits in the socket's queue holding our buffer, so the scratch is then
    // given up for a new one.
    if (sealed.buffer === this.scratch.buffer && this.socket.getSendQueueCount() > 0) {
      this.scratch = Buffer.allocUnsafeSlow(MAXIMUM_MTU);
    }
  }
}
