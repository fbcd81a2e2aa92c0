import {
  configurationMessages as c,
  customItemsFileSchema,
  defaultNewbieKit,
  engineConfigFiles,
  type NewbieKit,
  type NewbieKitEntry,
  newbieKitSchema,
  versionedWriteMessages,
} from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { itemNames } from '../items/items.routes.ts';
import {
  assertConfigurable,
  assertConfigVersion,
  readConfigFile,
  readVersionedConfigFile,
  serialised,
  writeConfigFile,
} from './config-files.ts';

/**
 * The Newbie Kit tab: newbie-kit.json, which the engine reads at start (the page restarts the server
 * after saving) and gives to every player it creates.
 */

/**
 * The kit as stored, with the version of the file (ADR 0035); a missing or broken file reads as the empty kit,
 * as the engine reads it.
 */
export async function readNewbieKit(ctx: AppContext, access: ServerAccess): Promise<NewbieKit & { version: string }> {
  const { value, version } = await readVersionedConfigFile(
    ctx,
    access,
    engineConfigFiles.newbieKit,
    newbieKitSchema,
    defaultNewbieKit,
  );
  return { ...value, version };
}

/** An entry with each item once: the quantities of repeated ids are added up, as the page does. */
function mergeItems(entry: NewbieKitEntry): NewbieKitEntry {
  const totals = new Map<number, number>();
  for (const [id, qty] of entry.items) totals.set(id, Math.min(2_147_483_647, (totals.get(id) ?? 0) + qty));
  return { ...entry, items: [...totals] };
}

/** Refuses (400) ids that are neither in the item database nor custom items of this server. */
async function assertKnownItems(ctx: AppContext, access: ServerAccess, kit: NewbieKit): Promise<void> {
  const ids = new Set(kit.ITEMS.flatMap((entry) => entry.items.map(([id]) => id)));
  if (ids.size === 0) return;
  const known = new Set((await itemNames(ctx)).map((item) => item.item_id));
  let unknown = [...ids].filter((id) => !known.has(id));
  if (unknown.length) {
    const custom = await readConfigFile(ctx, access, engineConfigFiles.customItems, customItemsFileSchema, () => ({
      items: [],
    }));
    const customIds = new Set(custom.items.map((item) => item.ID));
    unknown = unknown.filter((id) => !customIds.has(id));
  }
  if (unknown.length) throw badRequest(c.unknownKitItems(unknown.sort((a, b) => a - b)), 'unknown_item');
}

/**
 * Replaces the whole kit (already validated and normalised by the contract's schema) if the file is still at the
 * version the page read (`expected`, ADR 0035); resolves to the new version and whether the content changed.
 */
export async function saveNewbieKit(
  ctx: AppContext,
  access: ServerAccess,
  kit: NewbieKit,
  expected: string | undefined,
): Promise<{ version: string; changed: boolean }> {
  const merged: NewbieKit = { ITEMS: kit.ITEMS.map(mergeItems) };
  const saved = await serialised(access.server.id, async () => {
    assertConfigurable(ctx, access);
    const before = await assertConfigVersion(
      ctx,
      access,
      engineConfigFiles.newbieKit,
      expected,
      versionedWriteMessages.newbieKitChanged,
    );
    await assertKnownItems(ctx, access, merged);
    const version = await writeConfigFile(ctx, access, engineConfigFiles.newbieKit, merged);
    return { version, changed: version !== before };
  });
  const first = merged.ITEMS[0];
  await logServerAction(
    ctx,
    access,
    'Newbie kit updated',
    `${first?.Gemss ?? 0} gems, ${first?.Coin ?? 0} coins, ${first?.items.length ?? 0} item(s)`,
  );
  return saved;
}
