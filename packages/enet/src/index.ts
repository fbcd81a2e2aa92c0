// @canopy/enet: ENet 1.3 with the game client's settings (crc32, range coder, the "new packet" client header),
// over node:dgram. The host serves the engines and the gateway's front; the client is the headless bot's.

export { type DisconnectReason, EnetClient, type EnetClientOptions } from './client.ts';
export { crc32 } from './crc32.ts';
export { decodeDatagram, encodeDatagram, type HeaderKind } from './datagram.ts';
export { EnetHost } from './host.ts';
export type { HostEvents, HostOptions } from './host-options.ts';
export { rangeDecode, rangeEncode } from './range-coder.ts';
