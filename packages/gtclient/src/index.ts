// @canopy/gtclient: a headless client that behaves like the real game client 5.51 (protocol 225), for tests,
// benchmarks and the command line.

export { type DisconnectReason, EnetClient, type EnetClientOptions, rangeDecode, rangeEncode } from '@canopy/enet';
export { Bot, type BotEvent, type BotOptions, type Endpoint, type JoinedWorld, type LoginResult } from './bot.ts';
export { fetchServerData, type HttpOptions, parseServerData, type ServerData, serverDataForm } from './http.ts';
export { type CallEvent, decodeIncoming, type IncomingEvent } from './protocol/incoming.ts';
export {
  inflateItems,
  LOGON_CALL,
  type LogonInfo,
  parseLogon,
  protonHash,
  readItemsTank,
} from './protocol/items.ts';
export { encodeText, MessageType, parseText, textBody } from './protocol/messages.ts';
export { DecodeError } from './protocol/reader.ts';
export {
  ACTION_MESSAGE_TYPE,
  type ActionName,
  CLIENT_PLATFORM_ID,
  CLIENT_PROTOCOL,
  CLIENT_VERSION,
  chatInput,
  encodeAction,
  frontLoginLines,
  type GameLoginFields,
  gameLoginLines,
  joinRequest,
  parseSendToServer,
  type SendToServer,
} from './protocol/real-client.ts';
export { blankTank, decodeTank, encodeTank, type Tank, TankType } from './protocol/tank.ts';
export {
  decodeTypedVariants,
  decodeVariants,
  encodeVariants,
  type IndexedVariant,
  type Variant,
  type VariantValue,
} from './protocol/variant.ts';
export {
  type DoorExtra,
  type DroppedObject,
  decodeInventory,
  decodeWorld,
  type Inventory,
  ITEMS_WITH_EXTRA,
  readTileExtra,
  type TileExtra,
  TileFlag,
  type Weather,
  type WorldData,
  type WorldTile,
} from './protocol/world.ts';
export {
  checkToken,
  checkTokenUrl,
  fetchToken,
  htmlErrorText,
  loginValidateUrl,
  type TokenRequest,
  tokenForm,
} from './token.ts';
