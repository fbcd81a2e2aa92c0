// An ENet 1.3 server host over node:dgram, with the game client's settings: crc32 checksums, the range coder, and
// Growtopia's "new packet" client header (ADR 0026 says why it is ours and not a native library's). It runs on the
// caller's event loop: datagrams are handled as they arrive, and what we send is packed into datagrams at most once
// per `flushIntervalMs` per peer, so a busy world costs a few datagrams per peer per tick, not one per message.

import type { RemoteInfo, Socket } from 'node:dgram';
import { type HeaderKind, type IncomingHeader, MAXIMUM_MTU, openBody, readHeader } from './datagram.ts';
import {
  DEFAULT_REASSEMBLY,
  type HostEvents,
  type HostOptions,
  type HostSettings,
  withDefaults,
} from './host-options.ts';
import { Outbox } from './outbox.ts';
import { nextSessionIds, Peer } from './peer.ts';
import {
  COMMAND_MASK,
  CONTROL_CHANNEL,
  Command,
  encodeAcknowledge,
  encodeDisconnect,
  encodeDisconnectNow,
  encodePing,
  encodeVerifyConnect,
  FLAG_ACKNOWLEDGE,
  type HandshakeFields,
  MAXIMUM_PEER_ID,
  type ParsedCommand,
  parseCommand,
} from './protocol.ts';
import type { ReassemblyLimits } from './reassembly.ts';

const HOST_MTU = 1400;
const MINIMUM_MTU = 576;
const MINIMUM_WINDOW = 4096;
const MAXIMUM_WINDOW = 65_536;
const MINIMUM_RTO = 100;
const INITIAL_RTO = 500;
const DISCONNECT_GRACE_MS = 3000;
const TICK_MS = 10;
const ACKNOWLEDGE_SIZE = 8;
/** Unreliable packets one peer may have waiting for the next flush (a flush runs every few milliseconds). */
const MAXIMUM_UNRELIABLE_QUEUED = 8192;

const isLoopback = (address: string) => address.startsWith('127.') || address === '::1';

export class EnetHost {
  readonly port: number;
  readonly stats = { datagramsIn: 0, datagramsOut: 0, dropped: 0, retransmits: 0, unreliableDropped: 0 };
  private readonly socket: Socket;
  private readonly events: HostEvents;
  private readonly header: HeaderKind;
  private readonly opts: HostSettings;
  private readonly reassembly: ReassemblyLimits;
  private readonly peers: (Peer | undefined)[] = [];
  /** Session ids each slot last used, so a datagram from a slot's previous peer is refused. */
  private readonly sessions: { incoming: number; outgoing: number }[] = [];
  private readonly perAddress = new Map<string, number>();
  private readonly dirty = new Set<Peer>();
  private readonly outbox: Outbox;
  /** Where datagrams are packed (see transmit). */
  private readonly epoch = performance.now();
  private count = 0;
  private flushTimer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private ticker: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: HostOptions, events: HostEvents) {
    this.socket = options.socket;
    this.port = options.socket.address().port;
    this.events = events;
    this.header = options.header ?? 'new';
    this.reassembly = options.reassembly ?? DEFAULT_REASSEMBLY;
    this.opts = withDefaults(options);
    this.outbox = new Outbox(options.socket, this.opts.compress, this.stats);
    this.socket.on('message', (msg, rinfo) => this.receive(msg, rinfo));
  }

  /** Peers holding a slot, connecting ones included. */
  peerCount(): number {
    return this.count;
  }

  /** Queues one packet reliably (cut into fragments when it does not fit a datagram). */
  send(id: number, data: Uint8Array, channelId = 0): void {
    const p = this.peers[id];
    if (!p || (p.state !== 'connected' && p.state !== 'disconnect-later') || channelId >= p.channelCount) return;
    if (p.waitingBytes + data.length > this.opts.maxQueuedBytes) {
      this.drop(p); // it does not acknowledge what we send: holding more for it helps nobody
      return;
    }
    for (const command of p.encodeReliable(channelId, data)) this.enqueue(p, command);
  }

  /**
   * Queues one packet unreliably: sent once in the next datagram, never acknowledged nor resent, and delivered
   * only after the reliable packets queued before it (what movement is: a newer state replaces a lost one). It
   * costs no window, no acknowledgement and no retransmission timer. Too big for one datagram, or after 65,534
   * unreliable packets in a row, it goes reliably (as ENet does).
   */
  sendUnreliable(id: number, data: Uint8Array, channelId = 0): void {
    const p = this.peers[id];
    if (!p || (p.state !== 'connected' && p.state !== 'disconnect-later') || channelId >= p.channelCount) return;
    if (p.unreliable.length >= MAXIMUM_UNRELIABLE_QUEUED) {
      this.stats.unreliableDropped++; // the flush has not run for a long while: newer states will follow
      return;
    }
    const unreliable = data.length <= p.unreliableRoom() ? p.nextUnreliableSequence(channelId) : null;
    if (unreliable === null) {
      this.send(id, data, channelId);
      return;
    }
    p.queueUnreliable(channelId, data, unreliable);
    this.markDirty(p);
  }

  /** Disconnects once what is queued is acknowledged (`later`), or at once; 'disconnect' follows. */
  disconnect(id: number, later = true): void {
    const p = this.peers[id];
    if (!p || p.state === 'disconnecting') return;
    if (p.state === 'connecting') {
      this.drop(p);
      return;
    }
    if (later && (p.waiting.length > 0 || p.inFlight.size > 0)) p.state = 'disconnect-later';
    else this.sendDisconnect(p);
  }

  /** Tells the peer once, without waiting for it, and frees its slot ('disconnect' follows). */
  disconnectNow(id: number): void {
    const p = this.peers[id];
    if (p) this.drop(p);
  }

  /** The peer's IP address. */
  address(id: number): string | undefined {
    return this.peers[id]?.address;
  }

  /** Tells every peer once, lets go of the port. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    for (const p of this.peers) if (p) this.drop(p);
    this.closed = true;
    this.stopTicker();
    await new Promise<void>((done) => this.socket.close(() => done()));
  }

  /** Hands the host a datagram that arrived before it took the socket over. */
  receive(msg: Buffer, rinfo: RemoteInfo): void {
    if (this.closed) return;
    this.stats.datagramsIn++;
    if (msg.length > MAXIMUM_MTU) {
      this.refuse();
      return;
    }
    const h = readHeader(msg, this.header, this.header === 'new' ? this.port : undefined);
    if (!h) {
      this.refuse();
      return;
    }
    if (h.peerId === MAXIMUM_PEER_ID) {
      const body = this.open(msg, h, null);
      const connect = body ? parseCommand(body, 0)?.command : undefined;
      if (connect?.kind === 'connect' && h.sentTime !== null) this.accept(connect, rinfo);
      else this.refuse();
      return;
    }
    const p = this.peers[h.peerId];
    if (!p || p.port !== rinfo.port || p.address !== rinfo.address || h.sessionId !== p.incomingSessionId) {
      this.refuse();
      return;
    }
    const body = this.open(msg, h, p.connectId);
    if (!body) {
      this.refuse();
      return;
    }
    p.lastReceivedAt = this.now();
    // Commands in order, as ENet does: a truncated or unknown one ends the datagram. Acknowledgements, most of
    // what a busy client sends, are read in place.
    for (let pos = 0; pos < body.length && this.peers[p.id] === p; ) {
      if (((body[pos] ?? 0) & COMMAND_MASK) === Command.acknowledge && body.length - pos >= ACKNOWLEDGE_SIZE) {
        this.acknowledged(p, body[pos + 1] ?? 0, body.readUInt16BE(pos + 4), body.readUInt16BE(pos + 6));
        pos += ACKNOWLEDGE_SIZE;
        continue;
      }
      const read = parseCommand(body, pos);
      if (!read) return;
      this.handle(p, read.command, h.sentTime);
      pos = read.next;
    }
  }

  private open(msg: Buffer, h: IncomingHeader, connectId: Buffer | null): Buffer | null {
    try {
      return openBody(msg, h, connectId);
    } catch {
      return null; // a body the range coder cannot walk
    }
  }

  private refuse(): void {
    this.stats.dropped++;
  }

  private now(): number {
    return Math.floor(performance.now() - this.epoch);
  }

  /** A CONNECT from a new address: a slot, session ids, and our VERIFY_CONNECT. */
  private accept(c: HandshakeFields, rinfo: RemoteInfo): void {
    let free = -1;
    for (let i = 0; i < this.opts.peerLimit; i++) {
      const p = this.peers[i];
      if (!p) {
        if (free < 0) free = i;
      } else if (p.address === rinfo.address && p.port === rinfo.port && p.connectId.equals(c.connectId)) {
        return; // a retried CONNECT: our VERIFY_CONNECT is being retransmitted already
      }
    }
    const fromAddress = this.perAddress.get(rinfo.address) ?? 0;
    // Loopback is this machine itself (tests, benchmarks, a local proxy): only the peer limit applies to it.
    const crowded = fromAddress >= this.opts.perAddressLimit && !isLoopback(rinfo.address);
    if (free < 0 || crowded || c.channelCount < 1) {
      this.refuse();
      return;
    }
    const { incoming, outgoing } = nextSessionIds(this.sessions[free] ?? { incoming: 0xff, outgoing: 0xff }, c);
    const p = new Peer(
      { id: free, address: rinfo.address, port: rinfo.port, incomingSessionId: incoming, outgoingSessionId: outgoing },
      this.reassembly,
    );
    p.outgoingPeerId = c.outgoingPeerId;
    p.connectId = c.connectId;
    p.mtu = Math.min(HOST_MTU, Math.max(MINIMUM_MTU, Math.min(MAXIMUM_MTU, c.mtu)));
    p.windowSize = Math.max(MINIMUM_WINDOW, Math.min(MAXIMUM_WINDOW, c.windowSize));
    p.channelCount = Math.min(c.channelCount, this.opts.channelLimit);
    p.lastReceivedAt = this.now();
    this.peers[free] = p;
    this.sessions[free] = { incoming: p.incomingSessionId, outgoing: p.outgoingSessionId };
    this.perAddress.set(rinfo.address, fromAddress + 1);
    this.count++;
    this.startTicker();
    this.enqueue(
      p,
      encodeVerifyConnect({
        ...c,
        outgoingPeerId: p.id,
        // Named from the client's side: its incoming session is our outgoing one.
        incomingSessionId: p.outgoingSessionId,
        outgoingSessionId: p.incomingSessionId,
        mtu: p.mtu,
        windowSize: p.windowSize,
        channelCount: p.channelCount,
        reliableSequence: p.nextSequence(CONTROL_CHANNEL),
      }),
    );
  }

  private handle(p: Peer, c: ParsedCommand, sentTime: number | null): void {
    if (c.kind === 'acknowledge') {
      this.acknowledged(p, c.channelId, c.receivedSequence, c.receivedSentTime);
      return;
    }
    if (c.kind === 'connect' || c.kind === 'verifyConnect') return;
    if ((c.flags & FLAG_ACKNOWLEDGE) !== 0) {
      if (sentTime === null) return; // ENet acknowledges only datagrams that carry a sentTime
      p.outgoing.push(encodeAcknowledge(c.channelId, c.reliableSequence, sentTime));
      this.markDirty(p);
    }
    if (c.kind === 'disconnect') {
      this.flushPeer(p, this.now()); // the acknowledgement goes out before the slot is freed
      this.free(p);
      return;
    }
    if (c.kind === 'ping' || c.kind === 'control') return;
    if (p.state === 'disconnecting' || c.channelId >= p.channelCount) return;
    // Data before our VERIFY_CONNECT's acknowledgement (reordered): the header's session id and peer id, which
    // only the VERIFY_CONNECT told it, already prove the client has it.
    if (p.state === 'connecting') this.established(p);
    for (const packet of p.reassembler.accept(c)) {
      if (this.peers[p.id] !== p || (p.state as Peer['state']) === 'disconnecting') return;
      this.events.receive(p.id, packet, c.channelId);
    }
  }

  private acknowledged(p: Peer, channelId: number, sequence: number, sentTime: number): void {
    const key = (channelId << 16) | sequence;
    const o = p.inFlight.get(key);
    if (!o) return;
    p.inFlight.delete(key);
    p.inFlightBytes -= o.command.length;
    // Karn's rule: only a command sent once times the round trip.
    if (o.sentAt === o.firstSentAt) p.measure((this.now() - sentTime) & 0xffff);
    const command = (o.command[0] ?? 0) & COMMAND_MASK;
    if (channelId === CONTROL_CHANNEL && command === Command.verifyConnect && p.state === 'connecting') {
      this.established(p);
    } else if (channelId === CONTROL_CHANNEL && command === Command.disconnect && p.state === 'disconnecting') {
      this.free(p);
      return;
    }
    if (p.waiting.length > 0) this.markDirty(p);
  }

  private established(p: Peer): void {
    p.state = 'connected';
    p.announced = true;
    this.events.connect(p.id);
  }

  private enqueue(p: Peer, command: Buffer): void {
    if (p.unreliable.length > 0) p.spillUnreliable();
    p.waiting.push(command);
    p.waitingBytes += command.length;
    this.markDirty(p);
  }

  private sendDisconnect(p: Peer): void {
    p.waiting.length = 0;
    p.waitingBytes = 0;
    p.inFlight.clear();
    p.inFlightBytes = 0;
    p.state = 'disconnecting';
    p.disconnectBy = this.now() + DISCONNECT_GRACE_MS;
    this.enqueue(p, encodeDisconnect(p.nextSequence(CONTROL_CHANNEL)));
  }

  /** Tells the peer once, without waiting, and frees its slot. */
  private drop(p: Peer): void {
    if (this.peers[p.id] !== p) return;
    if (p.state !== 'connecting')
      this.outbox.sendAlone(p, encodeDisconnectNow(p.peekSequence(CONTROL_CHANNEL)), this.now());
    this.free(p);
  }

  private free(p: Peer): void {
    if (this.peers[p.id] !== p) return;
    this.peers[p.id] = undefined;
    this.dirty.delete(p);
    this.count--;
    const left = (this.perAddress.get(p.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(p.address, left);
    else this.perAddress.delete(p.address);
    if (this.count === 0) this.stopTicker();
    if (p.announced) this.events.disconnect(p.id);
  }

  private markDirty(p: Peer): void {
    this.dirty.add(p);
    if (this.flushTimer || this.closed) return;
    const wait = this.lastFlushAt + this.opts.flushIntervalMs - performance.now();
    this.flushTimer = wait <= 0 ? setImmediate(() => this.flush()) : setTimeout(() => this.flush(), Math.ceil(wait));
  }

  private flush(): void {
    this.flushTimer = null;
    if (this.closed) return;
    this.lastFlushAt = performance.now();
    const now = this.now();
    for (const p of this.dirty) this.flushPeer(p, now);
    this.dirty.clear();
  }

  /** Moves waiting commands into the window and writes everything due, packed into datagrams. */
  private flushPeer(p: Peer, now: number): void {
    p.admit(now, MINIMUM_RTO, INITIAL_RTO);
    this.outbox.flush(p, now);
  }

  private startTicker(): void {
    this.ticker ??= setInterval(() => this.tick(), TICK_MS);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** Retransmissions, pings, time-outs and delayed disconnects. */
  private tick(): void {
    const now = this.now();
    for (const p of this.peers) {
      if (!p) continue;
      if (p.state === 'connecting' && now - p.lastReceivedAt > this.opts.connectTimeoutMs) {
        this.free(p);
        continue;
      }
      if (p.state === 'disconnecting' && now > p.disconnectBy) {
        this.free(p);
        continue;
      }
      if (now - p.lastReceivedAt > this.opts.timeoutMs || this.retransmit(p, now) === 'timeout') {
        this.drop(p);
        continue;
      }
      const idle = p.inFlight.size === 0 && p.waiting.length === 0;
      if (p.state === 'disconnect-later' && idle) this.sendDisconnect(p);
      else if (p.state === 'connected' && idle && now - p.lastSentAt >= this.opts.pingIntervalMs) {
        this.enqueue(p, encodePing(p.nextSequence(CONTROL_CHANNEL)));
      }
    }
  }

  /** Sends again what is overdue; 'timeout' when something waited past the time-out. */
  private retransmit(p: Peer, now: number): 'timeout' | undefined {
    const resent = p.resendOverdue(now, this.opts.timeoutMs);
    if (resent === 'timeout') return resent;
    this.stats.retransmits += resent;
    if (resent > 0) this.markDirty(p);
    return undefined;
  }
}
