import {
  type CustomItem,
  type CustomItemsFile,
  customItemSchema,
  customItemsFileSchema,
  engineConfigFiles,
  MAX_CUSTOM_ITEMS,
  customItemsMessages as t,
  versionedWriteMessages,
} from '@canopy/contract';
import { decodeItemsDat, MAX_ITEM_ID } from '@canopy/formats';
import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { badRequest, conflict } from '../errors.ts';
import { itemNames } from '../items/items.routes.ts';
import {
  assertConfigVersion,
  onServerFiles,
  readConfigFile,
  readVersionedConfigFile,
  serialised,
  writeConfigFile,
  writeServerFile,
} from './config-files.ts';
import { sweepUnusedTextures, TEXTURE_DIR, type TextureUpload } from './custom-texture.ts';

const FILE = engineConfigFiles.customItems;
const empty = (): CustomItemsFile => ({ items: [] });

/** The server's custom-items.json (an empty list when it has none). */
export function readCustomItems(ctx: AppContext, access: ServerAccess): Promise<CustomItemsFile> {
  return readConfigFile(ctx, access, FILE, customItemsFileSchema, empty);
}

/** readCustomItems with the file's version (GET item-config, ADR 0035). */
export async function readVersionedCustomItems(
  ctx: AppContext,
  access: ServerAccess,
): Promise<CustomItemsFile & { version: string }> {
  const { value, version } = await readVersionedConfigFile(ctx, access, FILE, customItemsFileSchema, empty);
  return { ...value, version };
}

function highestIdIn(bytes: Buffer): number {
  const dat = decodeItemsDat(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return dat.items.reduce((max, item) => Math.max(max, item.id), -1);
}

/**
 * The highest id of the item database the server's engine starts on: an items.dat of its own wins (as the engine
 * decides), else the api's item database (an operator's install or the bundled one).
 */
async function highestBaseItemId(ctx: AppContext, access: ServerAccess): Promise<number> {
  const own = await onServerFiles(ctx, access, (files) => files.read('items.dat'));
  if (own) {
    try {
      return highestIdIn(own);
    } catch {
      return -1;
    }
  }
  return (await itemNames(ctx)).reduce((max, item) => Math.max(max, item.item_id), -1);
}

/** The textures in the server's cache. */
const storedTextures = async (ctx: AppContext, access: ServerAccess) =>
  new Set(await onServerFiles(ctx, access, (files) => files.listTextures()));

/** Refuses a texture that is not a file of this server's cache (the schema already allows only our names). */
async function assertTexturesExist(ctx: AppContext, access: ServerAccess, items: readonly CustomItem[]) {
  const files = new Set(items.flatMap((item) => (item.texture ? [item.texture.file] : [])));
  if (files.size === 0) return;
  const stored = await storedTextures(ctx, access);
  for (const file of files) if (!stored.has(file)) throw badRequest(t.textureMissing(file), 'texture_missing');
}

/**
 * Refuses an id far past the item database: items.dat ids are record positions, so the engine fills any
 * gap with placeholders, and a gap of 60,000 would be a file of megabytes outside the storage check.
 */
async function assertIdsInRange(ctx: AppContext, access: ServerAccess, items: readonly CustomItem[]) {
  const max = (await highestBaseItemId(ctx, access)) + MAX_CUSTOM_ITEMS;
  const far = items.find((item) => item.ID > max);
  if (far) throw badRequest(t.idTooHigh(far.ID, max), 'item_id_too_high');
}

/**
 * Replaces the server's custom items (PUT item-config) if the file is still at the version the page read
 * (`expected`, ADR 0035: an item created from a texture meanwhile is not dropped); resolves to the new version.
 */
export function saveCustomItems(
  ctx: AppContext,
  access: ServerAccess,
  file: CustomItemsFile,
  expected: string | undefined,
): Promise<{ version: string; changed: boolean }> {
  return serialised(access.server.id, async () => {
    const before = await assertConfigVersion(ctx, access, FILE, expected, versionedWriteMessages.customItemsChanged);
    await assertIdsInRange(ctx, access, file.items);
    await assertTexturesExist(ctx, access, file.items);
    const version = await writeConfigFile(ctx, access, FILE, file);
    await onServerFiles(ctx, access, (files) => sweepUnusedTextures(files, file.items));
    return { version, changed: version !== before };
  });
}

/**
 * Creates an item from an uploaded texture (POST custom-item, verified by checkTextureUpload): stores the RTTEX
 * in the server's texture cache under its content hash, and appends the item with the next free id. Returns
 * the new id.
 */
export async function createTextureItem(ctx: AppContext, access: ServerAccess, upload: TextureUpload): Promise<number> {
  // Verified before the turn (checkTextureUpload, on a worker): a bad upload is refused without waiting.
  const { bytes, file, ...body } = upload;
  return serialised(access.server.id, async () => {
    const current = await readCustomItems(ctx, access);
    const highest = current.items.reduce((max, item) => Math.max(max, item.ID), await highestBaseItemId(ctx, access));
    const id = highest + 1;
    if (id > MAX_ITEM_ID) throw conflict(`Item ids go up to ${MAX_ITEM_ID}; there is no free id left.`, 'no_item_id');
    const item = customItemSchema.parse({
      ID: id,
      Name: body.itemName,
      rarity: body.rarity,
      texture: { ...body.properties, file },
    });
    // The new id is above every other, so the list's one rule a new item can break is its length.
    if (current.items.length >= MAX_CUSTOM_ITEMS) throw badRequest(t.tooMany, 'too_many_items');
    const next = { items: [...current.items, item] };
    const path = `${TEXTURE_DIR}/${file}`;
    if (!(await storedTextures(ctx, access)).has(file)) await writeServerFile(ctx, access, path, bytes);
    await writeConfigFile(ctx, access, FILE, next);
    return id;
  });
}
