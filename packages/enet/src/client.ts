// An ENet 1.3 client peer over node:dgram: one connection to one server, reliable delivery on the game's channel,
// fragments both ways, acknowledgements, pings, retransmission and time-outs. Its counterpart is host.ts; both are
// checked against rusty_enet (growtopia.js), an independent ENet implementation, so a shared mistake would show.

import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { decodeDatagram, encodeDatagram, OUTGOING_OVERHEAD } from './datagram.ts';
import {
  COMMAND_MASK,
  CONTROL_CHANNEL,
  Command,
  encodeAcknowledge,
  encodeConnect,
  encodeDisconnect,
  encodeDisconnectNow,
  encodePing,
  encodeSendFragment,
  encodeSendReliable,
  MAXIMUM_PEER_ID,
  type ParsedCommand,
  parseCommand,
  SEND_FRAGMENT_SIZE,
  SEND_RELIABLE_SIZE,
  SEND_UNRELIABLE_SIZE,
} from './protocol.ts';
import { Reassembler } from './reassembly.ts';

export interface EnetClientOptions {
  /** Range-code what we send when it helps (the real client does). */
  compress?: boolean;
  mtu?: number;
  /** No datagram from the server for this long, or a reliable command unacknowledged this long: timed out. */
  timeoutMs?: number;
  /** First retransmission delay; it doubles on each retry. */
  retransmitMs?: number;
  pingIntervalMs?: number;
  /** Most reliable commands in flight; more wait their turn (the socket buffers are not infinite). */
  window?: number;
  /** The port the integrity words name; the server's own port, which differs from the one we send to behind a relay. */
  integrityPort?: number;
}

export type DisconnectReason = 'local' | 'remote' | 'timeout';

interface Outgoing {
  channelId: number;
  sequence: number;
  command: Buffer;
  firstSentAt: number;
  sentAt: number;
  rto: number;
}

const CHANNEL_COUNT = 2;

/** ENet client peer; events: 'packet' (data, channelId), 'disconnect' (reason). */
export class EnetClient extends EventEmitter {
  state: 'idle' | 'connecting' | 'connected' | 'disconnecting' | 'closed' = 'idle';
  /** Counters a test or benchmark reads. */
  readonly stats = {
    datagramsSent: 0,
    datagramsReceived: 0,
    dropped: 0,
    retransmits: 0,
    compressedSent: 0,
    compressedReceived: 0,
  };

  private readonly socket: Socket;
  private readonly opts: Required<EnetClientOptions>;
  private host = '';
  private port = 0;
  private readonly connectId = randomBytes(4);
  private outgoingPeerId = MAXIMUM_PEER_ID;
  private outgoingSessionId = 0;
  private incomingSessionId = 0;
  private mtu: number;
  private readonly outgoingSequence = new Uint16Array(CHANNEL_COUNT + 1); // index CHANNEL_COUNT: control
  private readonly inFlight: Outgoing[] = [];
  private readonly waiting: Omit<Outgoing, 'firstSentAt' | 'sentAt' | 'rto'>[] = [];
  private readonly pending: Buffer[] = [];
  private readonly reassembler = new Reassembler();
  private readonly epoch = performance.now();
  private lastReceivedAt = 0;
  private lastSentAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushScheduled = false;
  /** Datagrams handed to the socket and not yet sent. */
  private sending = 0;
  private srtt = 0;

  constructor(options: EnetClientOptions = {}) {
    super();
    this.opts = {
      compress: options.compress ?? true,
      mtu: options.mtu ?? 1400,
      timeoutMs: options.timeoutMs ?? 10_000,
      retransmitMs: options.retransmitMs ?? 500,
      pingIntervalMs: options.pingIntervalMs ?? 1000,
      window: options.window ?? 64,
      integrityPort: options.integrityPort ?? 0,
    };
    this.mtu = this.opts.mtu;
    this.socket = createSocket('udp4');
    this.socket.on('message', (msg, rinfo) => {
      if (rinfo.port !== this.port || rinfo.address !== this.host) return;
      this.receive(msg);
    });
    this.socket.on('error', () => this.close('timeout'));
  }

  private now(): number {
    return Math.floor(performance.now() - this.epoch);
  }

  /** Connects to an IPv4 server; resolves once VERIFY_CONNECT arrives, rejects on time-out. */
  async connect(host: string, port: number): Promise<void> {
    if (this.state !== 'idle') throw new Error(`cannot connect in state ${this.state}`);
    this.host = host;
    this.port = port;
    this.state = 'connecting';
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(0, () => {
        this.socket.off('error', reject);
        resolve();
      });
    });
    this.lastReceivedAt = this.now();
    this.timer = setInterval(() => this.tick(), 10);
    this.queueReliable(
      CONTROL_CHANNEL,
      encodeConnect({
        incomingPeerId: 0,
        mtu: this.mtu,
        windowSize: 65536,
        channelCount: CHANNEL_COUNT,
        connectId: this.connectId,
        reliableSequence: this.nextSequence(CONTROL_CHANNEL),
      }),
    );
    await new Promise<void>((resolve, reject) => {
      const onConnect = () => {
        this.off('disconnect', onDisconnect);
        resolve();
      };
      const onDisconnect = (reason: DisconnectReason) => {
        this.off('connect', onConnect);
        reject(new Error(`ENet connect to ${host}:${port} failed: ${reason}`));
      };
      this.once('connect', onConnect);
      this.once('disconnect', onDisconnect);
    });
  }

  /** Sends one packet reliably (fragmented when it does not fit one datagram). */
  send(data: Uint8Array, channelId = 0): void {
    if (this.state !== 'connected') throw new Error(`cannot send in state ${this.state}`);
    const room = this.mtu - OUTGOING_OVERHEAD;
    if (data.length + SEND_RELIABLE_SIZE <= room) {
      this.queueReliable(channelId, encodeSendReliable(channelId, this.nextSequence(channelId), data));
      return;
    }
    const fragmentLength = room - SEND_FRAGMENT_SIZE;
    const fragmentCount = Math.ceil(data.length / fragmentLength);
    const startSequence = ((this.outgoingSequence[channelId] ?? 0) + 1) & 0xffff;
    for (let i = 0; i < fragmentCount; i++) {
      const offset = i * fragmentLength;
      const command = encodeSendFragment({
        channelId,
        sequence: this.nextSequence(channelId),
        startSequence,
        fragmentCount,
        fragmentNumber: i,
        totalLength: data.length,
        fragmentOffset: offset,
        payload: data.subarray(offset, offset + fragmentLength),
      });
      this.queueReliable(channelId, command);
    }
  }

  /** Sends DISCONNECT and resolves when the server acknowledges it (or after a short grace). */
  async disconnect(graceMs = 2000): Promise<void> {
    if (this.state === 'closed' || this.state === 'idle') {
      this.close('local');
      return;
    }
    if (this.state === 'connected') {
      this.state = 'disconnecting';
      this.queueReliable(CONTROL_CHANNEL, encodeDisconnect(this.nextSequence(CONTROL_CHANNEL)));
      this.flush();
    }
    const closed = new Promise<void>((resolve) => this.once('disconnect', () => resolve()));
    const grace = setTimeout(() => this.close('local'), graceMs);
    await closed;
    clearTimeout(grace);
  }

  /** Tells the server once (unsequenced, unacknowledged, as ENet's disconnect_now does) and closes at once. */
  disconnectNow(): void {
    if (this.state === 'connected' || this.state === 'disconnecting') {
      this.write(encodeDisconnectNow(this.outgoingSequence[CHANNEL_COUNT] ?? 0));
    }
    this.close('local');
  }

  private nextSequence(channelId: number): number {
    const i = channelId === CONTROL_CHANNEL ? CHANNEL_COUNT : channelId;
    this.outgoingSequence[i] = (this.outgoingSequence[i] ?? 0) + 1;
    return this.outgoingSequence[i] ?? 0;
  }

  private queueReliable(channelId: number, command: Buffer): void {
    this.waiting.push({ channelId, sequence: command.readUInt16BE(2), command });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** Moves waiting reliable commands into flight and writes everything pending, packed into datagrams. */
  private flush(): void {
    if (this.state === 'closed') return;
    const now = this.now();
    while (this.inFlight.length < this.opts.window) {
      const w = this.waiting.shift();
      if (!w) break;
      this.inFlight.push({ ...w, firstSentAt: now, sentAt: now, rto: this.rto() });
      this.pending.push(w.command);
    }
    const room = this.mtu - OUTGOING_OVERHEAD;
    let batch: Buffer[] = [];
    let size = 0;
    for (const command of this.pending) {
      if (size + command.length > room && batch.length > 0) {
        this.write(Buffer.concat(batch));
        batch = [];
        size = 0;
      }
      batch.push(command);
      size += command.length;
    }
    if (batch.length > 0) this.write(Buffer.concat(batch));
    this.pending.length = 0;
  }

  private rto(): number {
    return this.srtt > 0 ? Math.max(50, Math.min(this.opts.retransmitMs, this.srtt * 3)) : this.opts.retransmitMs;
  }

  private write(commands: Buffer): void {
    const datagram = encodeDatagram(
      {
        peerId: this.outgoingPeerId,
        sessionId: this.outgoingSessionId,
        sentTime: this.now(),
        serverPort: this.opts.integrityPort || this.port,
        connectId: this.connectId,
        compress: this.opts.compress,
      },
      commands,
    );
    if (datagram.length - OUTGOING_OVERHEAD < commands.length) this.stats.compressedSent++;
    this.stats.datagramsSent++;
    this.lastSentAt = this.now();
    this.sending++;
    this.socket.send(datagram, this.port, this.host, () => {
      this.sending--;
      if (this.state === 'closed' && this.sending === 0) this.closeSocket();
    });
  }

  private tick(): void {
    const now = this.now();
    if (now - this.lastReceivedAt > this.opts.timeoutMs) {
      this.close('timeout');
      return;
    }
    for (const o of this.inFlight) {
      if (now - o.firstSentAt > this.opts.timeoutMs) {
        this.close('timeout');
        return;
      }
      if (now - o.sentAt >= o.rto) {
        o.sentAt = now;
        o.rto = Math.min(o.rto * 2, 5000);
        this.stats.retransmits++;
        this.pending.push(o.command);
      }
    }
    if (this.state === 'connected' && now - this.lastSentAt >= this.opts.pingIntervalMs && this.waiting.length === 0) {
      this.queueReliable(CONTROL_CHANNEL, encodePing(this.nextSequence(CONTROL_CHANNEL)));
    }
    if (this.pending.length > 0 || this.waiting.length > 0) this.flush();
  }

  private receive(msg: Buffer): void {
    if (this.state === 'closed') return;
    let d: ReturnType<typeof decodeDatagram> = null;
    try {
      d = decodeDatagram(msg, this.connectId);
    } catch {
      d = null; // a body the range coder cannot walk
    }
    if (!d || (this.state === 'connected' && d.sessionId !== this.incomingSessionId)) {
      this.stats.dropped++;
      return;
    }
    if (d.compressed) this.stats.compressedReceived++;
    this.stats.datagramsReceived++;
    this.lastReceivedAt = this.now();
    // Commands in order, as ENet does: a truncated or unknown one ends the datagram. Unreliable ones (others'
    // movement, most of what a busy world sends) are read in place.
    const body = d.body;
    for (let pos = 0; pos < body.length && !this.isClosed(); ) {
      if (((body[pos] ?? 0) & COMMAND_MASK) === Command.sendUnreliable && body.length - pos >= SEND_UNRELIABLE_SIZE) {
        const channel = body[pos + 1] ?? 0;
        const end = pos + SEND_UNRELIABLE_SIZE + body.readUInt16BE(pos + 6);
        if (end > body.length) break;
        const current = this.reassembler.currentUnreliable(
          channel,
          body.readUInt16BE(pos + 2),
          body.readUInt16BE(pos + 4),
        );
        if (current && channel < CHANNEL_COUNT)
          this.emit('packet', body.subarray(pos + SEND_UNRELIABLE_SIZE, end), channel);
        pos = end;
        continue;
      }
      const read = parseCommand(body, pos);
      if (!read) break;
      this.handle(read.command, d.sentTime);
      pos = read.next;
    }
    if (this.pending.length > 0 || this.waiting.length > 0) this.flush();
  }

  private handle(c: ParsedCommand, sentTime: number | null): void {
    if (c.kind === 'acknowledge') {
      this.acknowledged(c.channelId, c.receivedSequence, c.receivedSentTime);
      return;
    }
    const reliable = (c.flags & 0x80) !== 0;
    if (reliable) {
      // ENet acknowledges only datagrams that carry a sentTime; a reliable command without one is not valid.
      if (sentTime === null) return;
      this.pending.push(encodeAcknowledge(c.channelId, c.reliableSequence, sentTime));
    }
    switch (c.kind) {
      case 'verifyConnect': {
        if (this.state !== 'connecting' || !c.connectId.equals(this.connectId)) return;
        this.inFlight.splice(0, this.inFlight.length, ...this.inFlight.filter((o) => o.channelId !== CONTROL_CHANNEL));
        this.outgoingPeerId = c.outgoingPeerId;
        this.incomingSessionId = c.incomingSessionId;
        this.outgoingSessionId = c.outgoingSessionId;
        this.mtu = Math.max(576, Math.min(this.mtu, c.mtu));
        this.state = 'connected';
        this.emit('connect');
        return;
      }
      case 'disconnect':
        // Send the acknowledgement before going away, as ENet does.
        this.flush();
        this.close('remote');
        return;
      case 'ping':
      case 'control':
      case 'connect':
        return;
      default:
        break;
    }
    if (c.channelId >= CHANNEL_COUNT) return;
    for (const packet of this.reassembler.accept(c)) this.emit('packet', packet, c.channelId);
  }

  private acknowledged(channelId: number, sequence: number, receivedSentTime: number): void {
    const i = this.inFlight.findIndex((o) => o.channelId === channelId && o.sequence === sequence);
    if (i < 0) return;
    const [o] = this.inFlight.splice(i, 1);
    const rtt = (this.now() - receivedSentTime) & 0xffff;
    if (rtt < 10_000) this.srtt = this.srtt === 0 ? rtt : (this.srtt * 7 + rtt) / 8;
    if (o && o.channelId === CONTROL_CHANNEL && this.state === 'disconnecting' && (o.command[0] ?? 0) % 16 === 4) {
      this.close('local');
    }
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Drops the connection without telling the server (use disconnect() to tell it). */
  close(reason: DisconnectReason = 'local'): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A datagram still on its way (disconnectNow's DISCONNECT) would be cancelled by closing the socket now.
    if (this.sending === 0) this.closeSocket();
    this.emit('disconnect', reason);
  }

  private closeSocket(): void {
    try {
      this.socket.close();
    } catch {
      // already closed
    }
  }
}
