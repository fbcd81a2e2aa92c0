// One UDP datagram of ENet: a header, the crc32 checksum, and the (optionally range-coded) commands.
//
// Two headers exist. The game client sends Growtopia's "new packet" header: three integrity words
// (`i0 = r` with r = rand() % (serverPort + 1), `i1 = r ^ serverPort`, `i2 = (rand & 0x61D2) | 0x920D`) before the standard `peerID` and `sentTime`.
// The server answers with the standard header (`peerID`, `sentTime`). In both, `sentTime` is present only when the
// peerID word carries HEADER_FLAG_SENT_TIME.
//
// Checksum rule (ENet 1.3): the 4-byte checksum field follows the header; while the crc32 is computed it holds the
// peer's connectID (the raw 4 bytes of the CONNECT), or zero before the peer has an id (peerID 0xFFF). The crc32
// covers the header, that field and the *uncompressed* commands; it is stored big-endian.
// Compression: the sender compresses only when the result is smaller, and flags the header; so an uncompressed
// datagram is always legal.

import { crc32 } from './crc32.ts';
import {
  HEADER_FLAG_COMPRESSED,
  HEADER_FLAG_SENT_TIME,
  HEADER_SESSION_MASK,
  HEADER_SESSION_SHIFT,
  MAXIMUM_PEER_ID,
} from './protocol.ts';
import { rangeDecode, rangeEncode } from './range-coder.ts';

/** 'new': the game client's header (three integrity words first); 'standard': ENet's own, which servers send. */
export type HeaderKind = 'new' | 'standard';

const INTEGRITY_SIZE = 6;
const CHECKSUM_SIZE = 4;
const NO_CONNECT_ID = new Uint8Array(CHECKSUM_SIZE);

/** Bytes of a header with sentTime plus the checksum. */
export function headerOverhead(kind: HeaderKind): number {
  return (kind === 'new' ? INTEGRITY_SIZE : 0) + 4 + CHECKSUM_SIZE;
}

/** Bytes of the new-packet header plus the checksum: what every datagram a client sends starts with. */
export const OUTGOING_OVERHEAD = headerOverhead('new');
/** ENet's largest datagram (its receive buffer); a decompressed body may not exceed it. */
export const MAXIMUM_MTU = 4096;

export interface OutgoingHeader {
  kind?: HeaderKind;
  peerId: number;
  sessionId: number;
  sentTime: number;
  /** New header only: the server's UDP port, which the integrity words prove the sender knows. */
  serverPort?: number;
  /** The peer's connectID bytes; zeros while peerId is 0xFFF. */
  connectId: Buffer;
  compress: boolean;
  random?: () => number;
}

/**
 * Builds a datagram around already-encoded commands (a client's new-packet header unless `kind` says otherwise).
 * `commands` may be a list: they are copied once, straight into the datagram.
 */
export function encodeDatagram(h: OutgoingHeader, commands: Buffer | Buffer[]): Buffer {
  const parts = Array.isArray(commands) ? commands : [commands];
  let length = 0;
  for (const part of parts) length += part.length;
  const out = allocateDatagram(h.kind ?? 'new', length);
  let pos = headerOverhead(h.kind ?? 'new');
  for (const part of parts) pos += part.copy(out, pos);
  return sealDatagram(h, out);
}

/** A datagram's buffer with room for `commandBytes` after the header; the caller writes them, then seals it. */
export function allocateDatagram(kind: HeaderKind, commandBytes: number): Buffer {
  return Buffer.allocUnsafe(headerOverhead(kind) + commandBytes);
}

/**
 * Writes the header and checksum of a datagram whose commands are already in place after the header (the
 * checksum covers the header and the uncompressed commands, so the whole datagram is laid out first), and
 * range-codes the commands when asked and smaller.
 */
export function sealDatagram(h: OutgoingHeader, out: Buffer): Buffer {
  const kind = h.kind ?? 'new';
  const overhead = headerOverhead(kind);
  const length = out.length;
  const packed = h.compress ? rangeEncode(out.subarray(overhead), length - overhead) : null;
  const compressed = packed !== null && packed.length > 0 && packed.length < length - overhead;
  let flags = HEADER_FLAG_SENT_TIME | (compressed ? HEADER_FLAG_COMPRESSED : 0);
  if (h.peerId < MAXIMUM_PEER_ID) flags |= (h.sessionId << HEADER_SESSION_SHIFT) & HEADER_SESSION_MASK;
  let at = 0;
  if (kind === 'new') {
    const random = h.random ?? (() => Math.floor(Math.random() * 0x10000));
    const port = h.serverPort ?? 0;
    // The real client's ENet takes r = rand() % (port + 1), so 0..port inclusive (ZTzTopia/enet, the fork the
    // working servers link), with the Windows C rand() range 0..0x7FFF. So r never has the top bit set, which
    // rusty_enet also requires of non-CONNECT datagrams (measured against growtopia.js 2.2.0: about half our
    // acknowledgements were lost before r was kept below 0x8000).
    const r = (random() & 0x7fff) % (port + 1);
    out.writeUInt16BE(r, 0);
    out.writeUInt16BE((r ^ port) & 0xffff, 2);
    out.writeUInt16BE((random() & 0x61d2) | 0x920d, 4);
    at = INTEGRITY_SIZE;
  }
  out.writeUInt16BE((h.peerId | flags) & 0xffff, at);
  out.writeUInt16BE(h.sentTime & 0xffff, at + 2);
  if (h.peerId < MAXIMUM_PEER_ID) h.connectId.copy(out, at + 4, 0, 4);
  else out.writeUInt32BE(0, at + 4);
  out.writeUInt32BE(crc32(out), at + 4);
  if (!compressed) return out;
  return Buffer.concat([out.subarray(0, overhead), packed]);
}

export interface IncomingHeader {
  peerId: number;
  sessionId: number;
  sentTime: number | null;
  compressed: boolean;
  /** Bytes up to and including the checksum. */
  size: number;
}

/**
 * Reads a datagram's header; null when it is too short, or (new header, `port` given) its integrity words do not
 * name `port`.
 */
export function readHeader(datagram: Buffer, kind: HeaderKind, port?: number): IncomingHeader | null {
  const at = kind === 'new' ? INTEGRITY_SIZE : 0;
  if (datagram.length < at + 2) return null;
  if (kind === 'new' && port !== undefined && (datagram.readUInt16BE(0) ^ datagram.readUInt16BE(2)) !== port) {
    return null;
  }
  const word = datagram.readUInt16BE(at);
  const hasTime = (word & HEADER_FLAG_SENT_TIME) !== 0;
  const size = at + (hasTime ? 4 : 2) + CHECKSUM_SIZE;
  if (datagram.length < size) return null;
  return {
    peerId: word & MAXIMUM_PEER_ID,
    sessionId: (word & HEADER_SESSION_MASK) >> HEADER_SESSION_SHIFT,
    sentTime: hasTime ? datagram.readUInt16BE(at + 2) : null,
    compressed: (word & HEADER_FLAG_COMPRESSED) !== 0,
    size,
  };
}

/** The datagram's commands, decompressed; null when they do not decompress or fail the checksum. */
export function openBody(datagram: Buffer, h: IncomingHeader, connectId: Buffer | null): Buffer | null {
  let body = datagram.subarray(h.size);
  if (h.compressed) {
    const decoded = rangeDecode(body, MAXIMUM_MTU - h.size);
    if (!decoded || decoded.length === 0) return null;
    body = decoded;
  }
  // The checksum field held the connectID (or zeros) while the sender computed it: chained, nothing is copied.
  const field = h.size - CHECKSUM_SIZE;
  const desired = datagram.readUInt32BE(field);
  const seed = h.peerId !== MAXIMUM_PEER_ID && connectId ? connectId.subarray(0, CHECKSUM_SIZE) : NO_CONNECT_ID;
  return crc32(body, crc32(seed, crc32(datagram.subarray(0, field)))) === desired ? body : null;
}

export interface IncomingDatagram extends IncomingHeader {
  body: Buffer;
}

/** Reads a whole datagram (a server's standard header unless `kind` says otherwise); null when it is not valid. */
export function decodeDatagram(
  datagram: Buffer,
  connectId: Buffer | null,
  kind: HeaderKind = 'standard',
): IncomingDatagram | null {
  const h = readHeader(datagram, kind);
  if (!h) return null;
  const body = openBody(datagram, h, connectId);
  return body ? { ...h, body } : null;
}
