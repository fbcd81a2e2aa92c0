// One UDP datagram of ENet: the header (Growtopia's "new packet" header when we send, the standard one when the
// server sends), the crc32 checksum, and the range-coded body.
//
// Checksum rule (ENet 1.3): the 4-byte checksum field follows the header; while the crc32 is computed it holds the
// peer's connectID (the raw 4 bytes of our CONNECT), or zero before the peer has an id (peerID 0xFFF). The crc32
// covers the header, that field and the *uncompressed* commands; it is stored big-endian.
// Compression: the sender compresses only when the result is smaller, and flags the header; so an uncompressed
// datagram is always legal. We compress by default, as the real client does.

import { crc32 } from './crc32.ts';
import {
  HEADER_FLAG_COMPRESSED,
  HEADER_FLAG_SENT_TIME,
  HEADER_SESSION_MASK,
  HEADER_SESSION_SHIFT,
  MAXIMUM_PEER_ID,
} from './protocol.ts';
import { rangeDecode, rangeEncode } from './range-coder.ts';

/** Bytes of the new-packet header plus the checksum: what every datagram we send starts with. */
export const OUTGOING_OVERHEAD = 10 + 4;
/** ENet's largest datagram (its receive buffer); a decompressed body may not exceed it. */
export const MAXIMUM_MTU = 4096;

export interface OutgoingHeader {
  peerId: number;
  sessionId: number;
  sentTime: number;
  /** The server's UDP port: the integrity words prove we know it. */
  serverPort: number;
  /** The peer's connectID bytes; zeros while peerId is 0xFFF. */
  connectId: Buffer;
  compress: boolean;
  random?: () => number;
}

/** Builds a client datagram around already-encoded commands. */
export function encodeDatagram(h: OutgoingHeader, commands: Buffer): Buffer {
  const random = h.random ?? (() => Math.floor(Math.random() * 0x10000));
  const packed = h.compress ? rangeEncode(commands, commands.length) : null;
  const compressed = packed !== null && packed.length > 0 && packed.length < commands.length;
  let flags = HEADER_FLAG_SENT_TIME | (compressed ? HEADER_FLAG_COMPRESSED : 0);
  if (h.peerId < MAXIMUM_PEER_ID) flags |= (h.sessionId << HEADER_SESSION_SHIFT) & HEADER_SESSION_MASK;
  const head = Buffer.alloc(OUTGOING_OVERHEAD);
  // r is a C rand() value (0..0x7FFF) in the real client; the native host drops non-CONNECT datagrams whose r has
  // the top bit set (measured against growtopia.js 2.2.0: about half our acknowledgements were lost before this mask).
  const r = random() & 0x7fff;
  head.writeUInt16BE(r, 0);
  head.writeUInt16BE((r ^ h.serverPort) & 0xffff, 2);
  head.writeUInt16BE((random() & 0x61d2) | 0x920d, 4);
  head.writeUInt16BE((h.peerId | flags) & 0xffff, 6);
  head.writeUInt16BE(h.sentTime & 0xffff, 8);
  if (h.peerId < MAXIMUM_PEER_ID) h.connectId.copy(head, 10, 0, 4);
  head.writeUInt32BE(crc32(Buffer.concat([head, commands])), 10);
  return Buffer.concat([head, compressed ? packed : commands]);
}

export interface IncomingDatagram {
  peerId: number;
  sessionId: number;
  sentTime: number | null;
  compressed: boolean;
  body: Buffer;
}

/** Reads a server datagram (standard header); null when it is short, corrupt or fails its checksum. */
export function decodeDatagram(datagram: Buffer, connectId: Buffer | null): IncomingDatagram | null {
  if (datagram.length < 2) return null;
  const word = datagram.readUInt16BE(0);
  const hasTime = (word & HEADER_FLAG_SENT_TIME) !== 0;
  const headerSize = (hasTime ? 4 : 2) + 4;
  if (datagram.length < headerSize) return null;
  const peerId = word & MAXIMUM_PEER_ID;
  let full = datagram;
  if (word & HEADER_FLAG_COMPRESSED) {
    const body = rangeDecode(datagram.subarray(headerSize), MAXIMUM_MTU - headerSize);
    if (!body || body.length === 0) return null;
    full = Buffer.concat([datagram.subarray(0, headerSize), body]);
  } else {
    full = Buffer.from(datagram);
  }
  const desired = full.readUInt32BE(headerSize - 4);
  if (peerId !== MAXIMUM_PEER_ID && connectId) connectId.copy(full, headerSize - 4, 0, 4);
  else full.writeUInt32BE(0, headerSize - 4);
  if (crc32(full) !== desired) return null;
  return {
    peerId,
    sessionId: (word & HEADER_SESSION_MASK) >> HEADER_SESSION_SHIFT,
    sentTime: hasTime ? datagram.readUInt16BE(2) : null,
    compressed: (word & HEADER_FLAG_COMPRESSED) !== 0,
    body: full.subarray(headerSize),
  };
}
