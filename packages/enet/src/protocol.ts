// ENet 1.3 protocol commands: numbers, flags, sizes, and their byte layouts. Every ENet field is big-endian
// (network order), unlike the game messages carried inside, which are little-endian.

export const Command = {
  acknowledge: 1,
  connect: 2,
  verifyConnect: 3,
  disconnect: 4,
  ping: 5,
  sendReliable: 6,
  sendUnreliable: 7,
  sendFragment: 8,
  sendUnsequenced: 9,
  bandwidthLimit: 10,
  throttleConfigure: 11,
  sendUnreliableFragment: 12,
} as const;

export const COMMAND_MASK = 0x0f;
export const FLAG_ACKNOWLEDGE = 0x80;
export const FLAG_UNSEQUENCED = 0x40;
export const HEADER_FLAG_COMPRESSED = 0x4000;
export const HEADER_FLAG_SENT_TIME = 0x8000;
export const HEADER_SESSION_MASK = 0x3000;
export const HEADER_SESSION_SHIFT = 12;
export const MAXIMUM_PEER_ID = 0xfff;
/** The control channel: connect, verify, ping and disconnect travel on it. */
export const CONTROL_CHANNEL = 0xff;

/** Size of each command including its 4-byte command header, by command number (payload bytes follow some). */
const COMMAND_SIZES = [0, 8, 48, 44, 8, 4, 6, 8, 24, 8, 12, 16, 24];

export interface CommandHeader {
  command: number;
  flags: number;
  channelId: number;
  reliableSequence: number;
}

/** What CONNECT and VERIFY_CONNECT both carry, at the same offsets. */
export interface HandshakeFields {
  outgoingPeerId: number;
  incomingSessionId: number;
  outgoingSessionId: number;
  mtu: number;
  windowSize: number;
  channelCount: number;
  throttleInterval: number;
  throttleAcceleration: number;
  throttleDeceleration: number;
  connectId: Buffer;
}

function readHandshake(body: Buffer, at: number): HandshakeFields {
  return {
    outgoingPeerId: body.readUInt16BE(at),
    incomingSessionId: body[at + 2] ?? 0,
    outgoingSessionId: body[at + 3] ?? 0,
    mtu: body.readUInt32BE(at + 4),
    windowSize: body.readUInt32BE(at + 8),
    channelCount: body.readUInt32BE(at + 12),
    throttleInterval: body.readUInt32BE(at + 24),
    throttleAcceleration: body.readUInt32BE(at + 28),
    throttleDeceleration: body.readUInt32BE(at + 32),
    connectId: Buffer.from(body.subarray(at + 36, at + 40)),
  };
}

export type ParsedCommand =
  | (CommandHeader & { kind: 'acknowledge'; receivedSequence: number; receivedSentTime: number })
  | (CommandHeader & HandshakeFields & { kind: 'connect' | 'verifyConnect' })
  | (CommandHeader & { kind: 'disconnect'; data: number })
  | (CommandHeader & { kind: 'ping' | 'control' })
  | (CommandHeader & { kind: 'reliable' | 'unsequenced'; payload: Buffer })
  | (CommandHeader & { kind: 'unreliable'; unreliableSequence: number; payload: Buffer })
  | (CommandHeader & {
      kind: 'fragment';
      startSequence: number;
      fragmentCount: number;
      fragmentNumber: number;
      totalLength: number;
      fragmentOffset: number;
      payload: Buffer;
    });

/** Reads the command at `pos`; null when it is truncated or unknown (the rest of the datagram is dropped). */
export function parseCommand(body: Buffer, pos: number): { command: ParsedCommand; next: number } | null {
  let out: ParsedCommand | undefined;
  if (body.length - pos < 4) return null;
  const byte = body[pos] ?? 0;
  const command = byte & COMMAND_MASK;
  const size = COMMAND_SIZES[command];
  if (!size || body.length - pos < size) return null;
  const h: CommandHeader = {
    command,
    flags: byte & (FLAG_ACKNOWLEDGE | FLAG_UNSEQUENCED),
    channelId: body[pos + 1] ?? 0,
    reliableSequence: body.readUInt16BE(pos + 2),
  };
  const at = pos + 4;
  let next = pos + size;
  switch (command) {
    case Command.acknowledge:
      out = {
        ...h,
        kind: 'acknowledge',
        receivedSequence: body.readUInt16BE(at),
        receivedSentTime: body.readUInt16BE(at + 2),
      };
      break;
    case Command.connect:
    case Command.verifyConnect:
      out = { ...h, ...readHandshake(body, at), kind: command === Command.connect ? 'connect' : 'verifyConnect' };
      break;
    case Command.disconnect:
      out = { ...h, kind: 'disconnect', data: body.readUInt32BE(at) };
      break;
    case Command.ping:
      out = { ...h, kind: 'ping' };
      break;
    case Command.bandwidthLimit:
    case Command.throttleConfigure:
      out = { ...h, kind: 'control' };
      break;
    case Command.sendReliable: {
      const length = body.readUInt16BE(at);
      if (body.length - next < length) return null;
      out = { ...h, kind: 'reliable', payload: body.subarray(next, next + length) };
      next += length;
      break;
    }
    case Command.sendUnreliable:
    case Command.sendUnsequenced: {
      const length = body.readUInt16BE(at + 2);
      if (body.length - next < length) return null;
      const payload = body.subarray(next, next + length);
      out =
        command === Command.sendUnreliable
          ? { ...h, kind: 'unreliable', unreliableSequence: body.readUInt16BE(at), payload }
          : { ...h, kind: 'unsequenced', payload };
      next += length;
      break;
    }
    case Command.sendFragment:
    case Command.sendUnreliableFragment: {
      const length = body.readUInt16BE(at + 2);
      if (body.length - next < length) return null;
      out = {
        ...h,
        kind: 'fragment',
        startSequence: body.readUInt16BE(at),
        fragmentCount: body.readUInt32BE(at + 4),
        fragmentNumber: body.readUInt32BE(at + 8),
        totalLength: body.readUInt32BE(at + 12),
        fragmentOffset: body.readUInt32BE(at + 16),
        payload: body.subarray(next, next + length),
      };
      next += length;
      break;
    }
    default:
      return null;
  }
  return out ? { command: out, next } : null;
}

/** Splits a datagram body into commands; null when any command is truncated or unknown (the datagram is dropped). */
export function parseCommands(body: Buffer): ParsedCommand[] | null {
  const out: ParsedCommand[] = [];
  for (let pos = 0; pos < body.length; ) {
    const read = parseCommand(body, pos);
    if (!read) return null;
    out.push(read.command);
    pos = read.next;
  }
  return out;
}

/** A command's first four bytes; every encoder below writes all the rest (so no zero-fill is needed). */
function header(size: number, command: number, channelId: number, reliableSequence: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  b[0] = command;
  b[1] = channelId;
  b.writeUInt16BE(reliableSequence & 0xffff, 2);
  return b;
}

export interface ConnectFields {
  incomingPeerId: number;
  mtu: number;
  windowSize: number;
  channelCount: number;
  connectId: Buffer;
  reliableSequence: number;
}

/** CONNECT: session ids 0xFF ("pick one"), no bandwidth limits, ENet's default throttle (5000 ms, 2, 2). */
export function encodeConnect(f: ConnectFields): Buffer {
  const b = header(48, Command.connect | FLAG_ACKNOWLEDGE, CONTROL_CHANNEL, f.reliableSequence);
  b.writeUInt16BE(f.incomingPeerId, 4);
  b[6] = 0xff;
  b[7] = 0xff;
  b.writeUInt32BE(f.mtu, 8);
  b.writeUInt32BE(f.windowSize, 12);
  b.writeUInt32BE(f.channelCount, 16);
  b.writeUInt32BE(0, 20);
  b.writeUInt32BE(0, 24);
  b.writeUInt32BE(5000, 28);
  b.writeUInt32BE(2, 32);
  b.writeUInt32BE(2, 36);
  f.connectId.copy(b, 40, 0, 4);
  b.writeUInt32BE(0, 44);
  return b;
}

/**
 * VERIFY_CONNECT: the server's answer to a CONNECT (no bandwidth limits). `outgoingPeerId` is our peer index,
 * the peerID the client puts in its headers from now on; throttle and connectID are echoed from the CONNECT (an
 * ENet client refuses a VERIFY_CONNECT whose throttle or connectID differ).
 */
export function encodeVerifyConnect(f: HandshakeFields & { reliableSequence: number }): Buffer {
  const b = header(44, Command.verifyConnect | FLAG_ACKNOWLEDGE, CONTROL_CHANNEL, f.reliableSequence);
  b.writeUInt16BE(f.outgoingPeerId, 4);
  b[6] = f.incomingSessionId;
  b[7] = f.outgoingSessionId;
  b.writeUInt32BE(f.mtu, 8);
  b.writeUInt32BE(f.windowSize, 12);
  b.writeUInt32BE(f.channelCount, 16);
  b.writeUInt32BE(0, 20);
  b.writeUInt32BE(0, 24);
  b.writeUInt32BE(f.throttleInterval, 28);
  b.writeUInt32BE(f.throttleAcceleration, 32);
  b.writeUInt32BE(f.throttleDeceleration, 36);
  f.connectId.copy(b, 40, 0, 4);
  return b;
}

/** ACKNOWLEDGE of one reliable command, echoing the sentTime of the datagram that carried it. */
export function encodeAcknowledge(channelId: number, sequence: number, sentTime: number): Buffer {
  const b = header(8, Command.acknowledge, channelId, sequence);
  b.writeUInt16BE(sequence, 4);
  b.writeUInt16BE(sentTime & 0xffff, 6);
  return b;
}

export function encodePing(sequence: number): Buffer {
  return header(4, Command.ping | FLAG_ACKNOWLEDGE, CONTROL_CHANNEL, sequence);
}

export function encodeDisconnect(sequence: number, data = 0): Buffer {
  const b = header(8, Command.disconnect | FLAG_ACKNOWLEDGE, CONTROL_CHANNEL, sequence);
  b.writeUInt32BE(data >>> 0, 4);
  return b;
}

/** DISCONNECT sent once, unsequenced and unacknowledged, as ENet's disconnect_now does. */
export function encodeDisconnectNow(sequence: number): Buffer {
  const b = encodeDisconnect(sequence);
  b[0] = Command.disconnect | FLAG_UNSEQUENCED;
  return b;
}

export function encodeSendReliable(channelId: number, sequence: number, payload: Uint8Array): Buffer {
  const b = header(6 + payload.length, Command.sendReliable | FLAG_ACKNOWLEDGE, channelId, sequence);
  b.writeUInt16BE(payload.length, 4);
  b.set(payload, 6);
  return b;
}

/**
 * SEND_UNRELIABLE: never acknowledged nor sent again. `reliableSequence` is the channel's last reliable one: ENet
 * delivers it only after that one, and drops it once a later reliable one or a later unreliable one went through.
 */
export function encodeSendUnreliable(
  channelId: number,
  reliableSequence: number,
  unreliableSequence: number,
  payload: Uint8Array,
): Buffer {
  const b = Buffer.allocUnsafe(SEND_UNRELIABLE_SIZE + payload.length);
  writeSendUnreliable(b, 0, channelId, reliableSequence, unreliableSequence, payload);
  return b;
}

/** Writes a SEND_UNRELIABLE at `pos` of `out` (a datagram being packed); returns the position after it. */
export function writeSendUnreliable(
  out: Buffer,
  pos: number,
  channelId: number,
  reliableSequence: number,
  unreliableSequence: number,
  payload: Uint8Array,
): number {
  out[pos] = Command.sendUnreliable;
  out[pos + 1] = channelId;
  out.writeUInt16BE(reliableSequence & 0xffff, pos + 2);
  out.writeUInt16BE(unreliableSequence, pos + 4);
  out.writeUInt16BE(payload.length, pos + 6);
  out.set(payload, pos + SEND_UNRELIABLE_SIZE);
  return pos + SEND_UNRELIABLE_SIZE + payload.length;
}

export interface FragmentFields {
  channelId: number;
  sequence: number;
  startSequence: number;
  fragmentCount: number;
  fragmentNumber: number;
  totalLength: number;
  fragmentOffset: number;
  payload: Uint8Array;
}

export function encodeSendFragment(f: FragmentFields): Buffer {
  const b = header(24 + f.payload.length, Command.sendFragment | FLAG_ACKNOWLEDGE, f.channelId, f.sequence);
  b.writeUInt16BE(f.startSequence & 0xffff, 4);
  b.writeUInt16BE(f.payload.length, 6);
  b.writeUInt32BE(f.fragmentCount, 8);
  b.writeUInt32BE(f.fragmentNumber, 12);
  b.writeUInt32BE(f.totalLength, 16);
  b.writeUInt32BE(f.fragmentOffset, 20);
  b.set(f.payload, 24);
  return b;
}

/** Fixed sizes the sender needs to cut packets into fragments. */
export const SEND_RELIABLE_SIZE = 6;
export const SEND_FRAGMENT_SIZE = 24;
export const SEND_UNRELIABLE_SIZE = 8;
