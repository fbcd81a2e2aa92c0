// @canopy/gtclient: a headless Growtopia-protocol client for tests, benchmarks and the command line.

export { type DisconnectReason, EnetClient, type EnetClientOptions, rangeDecode, rangeEncode } from '@canopy/enet';
export { Bot, type BotEvent, type BotOptions, type Endpoint, type JoinedWorld, type LoginResult } from './bot.ts';
export { fetchServerData, type HttpOptions, parseServerData, type ServerData } from './http.ts';
export { type CallEvent, decodeIncoming, type IncomingEvent } from './protocol/incoming.ts';
export { inflateItems, protonHash } from './protocol/items.ts';
export { encodeText, MessageType, parseText, textBody } from './protocol/messages.ts';
export { blankTank, decodeTank, encodeTank, type Tank, TankType } from './protocol/tank.ts';
export { decodeVariants, encodeVariants, type Variant, type VariantValue } from './protocol/variant.ts';
export { decodeInventory, decodeWorld, type Inventory, type WorldData, type WorldTile } from './protocol/world.ts';
export { fetchToken, loginValidateUrl, type TokenRequest, tokenForm } from './token.ts';
