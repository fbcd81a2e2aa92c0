// Platform-neutral entry (Node and browser): items.dat, Proton hash, RTPACK/RTTXTR, sprites.
export { ByteReader, ByteWriter } from './bytes.ts';
export { ACTION_TYPE, ITEM_KIND, type Item, type ItemSummary, panelItemKind, toItemSummary } from './item.ts';
export {
  actionTypeOfKind,
  buildItemsDat,
  type ItemOverride,
  type ItemTextureSpec,
  MAX_ITEM_ID,
} from './items-build.ts';
export { decodeItemsDat, encodeItemsDat, type ItemsDat, minItemSize, nameKeyByte } from './items-dat.ts';
export {
  createItem,
  type FieldKind,
  type FieldSpec,
  ITEM_FIELDS,
  LATEST_ITEMS_DAT_VERSION,
  NAME_OBFUSCATION_SINCE,
} from './items-schema.ts';
export { protonHash } from './proton-hash.ts';
export {
  checkUnpacked,
  type Deflate,
  describeMagic,
  hasMagic,
  type Inflate,
  packRtpack,
  RTPACK_HEADER_SIZE,
  type RtpackHeader,
  readRtpack,
  unpackRtpack,
} from './rtpack.ts';
export {
  cutSprite,
  decodeRttex,
  decodeRttxtr,
  encodeRttxtr,
  nextPowerOfTwo,
  type RgbaImage,
  RTTEX_FORMAT_UNSIGNED_BYTE,
  RTTEX_MIP_HEADER_SIZE,
  RTTXTR_HEADER_SIZE,
  type RttexImage,
} from './rttex.ts';
export {
  type BoundedInflate,
  checkRttxtrHeader,
  DEFAULT_RTTEX_UPLOAD_LIMITS,
  maxRttxtrSize,
  RttexUploadError,
  type RttexUploadLimits,
  type VerifiedRttex,
  verifyRttexUpload,
  verifyRttexUploadAsync,
} from './rttex-bounds.ts';
