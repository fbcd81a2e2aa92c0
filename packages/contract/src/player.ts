import { z } from 'zod';
import { MAX_INVENTORY_ITEMS, MAX_STACK, PLAYER_GEMS_MAX, playerFlagPattern } from './engine-constants.ts';
import { boundedInt, itemIdSchema, versionSchema } from './world.ts';

// Defined in the zod-free module an idle engine loads (engine-constants.ts); exported here as before.
export {
  MAX_INVENTORY_ITEMS,
  MAX_STACK,
  PLAYER_GEMS_MAX,
  playerFlagPattern,
  playerRoles,
  playerTitles,
} from './engine-constants.ts';

const counter = (label: string) => boundedInt(label, 0, 2_147_483_647);

/** One inventory slot: [item id, count]. */
export const inventoryEntrySchema = z.tuple([itemIdSchema, boundedInt('Item count', 1, MAX_STACK)], {
  error: 'Each inventory entry must be [item id, count].',
});

/** A player's inventory; an item appears at most once. */
export const inventorySchema = z
  .array(inventoryEntrySchema, { error: 'Inventory must be a list of [item id, count] entries.' })
  .max(MAX_INVENTORY_ITEMS, `An inventory holds at most ${MAX_INVENTORY_ITEMS} different items.`)
  .superRefine((items, ctx) => {
    const seen = new Set<number>();
    for (const [i, [id]] of items.entries()) {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `Item ${id} appears more than once.` });
      seen.add(id);
    }
  });

const fields = {
  /** Empty on read; on write, empty keeps the current password and anything else sets a new one. */
  pass: z.string({ error: 'Password must be text.' }).max(128, 'Password must be at most 128 characters.'),
  email: z
    .string({ error: 'Email must be text.' })
    .trim()
    .max(254, 'Email must be at most 254 characters.')
    .regex(/^([^\s@]+@[^\s@]+)?$/, 'Email must be an email address or empty.'),
  home_world: z
    .string({ error: 'Home World must be text.' })
    .trim()
    .toUpperCase()
    .regex(/^([A-Z0-9]{1,24})?$/, 'Home World must be a world name (1-24 letters or digits) or empty.'),
  level: boundedInt('Level', 1, 1000),
  gems: boundedInt('Gems', 0, PLAYER_GEMS_MAX),
  xp: counter('XP'),
  wl_bank_amount: counter('World Lock Bank'),
  dl_bank_amount: counter('Diamond Lock Bank'),
  inventory: inventorySchema,
};
const known = new Set([...Object.keys(fields), 'name', 'id', 'banned', 'version']);

/**
 * Body of the engine's PUT /players/:name: the whole player. Extra keys must be Role.* or Title.*
 * booleans; name and id may be present (a GET round-trips them) but are not changed; banned is
 * optional (absent keeps the current state); version as for a world.
 */
const putBase = z.object({
  ...fields,
  name: z.string().optional(),
  id: z.int().optional(),
  banned: z.boolean().optional(),
  /** The revision the player was read at (ADR 0035); required to replace one, unless sent as If-Match. */
  version: versionSchema.optional(),
});
export const playerPutSchema = putBase
  .catchall(z.boolean({ error: 'Roles and titles must be true or false.' }))
  .superRefine((player, ctx) => {
    for (const key of Object.keys(player))
      if (!known.has(key) && !playerFlagPattern.test(key))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `Unknown field "${key}": only Role.* and Title.* flags may be added.`,
        });
  });
/** The Role.* and Title.* flags of a player record. */
export type PlayerFlags = { [key: `Role.${string}` | `Title.${string}`]: boolean };
export type PlayerPut = z.infer<typeof putBase> & PlayerFlags;

/** A player as the engine returns it; pass is always empty (passwords are stored hashed). */
const playerBase = z.object({
  ...fields,
  pass: z.literal(''),
  name: z.string(),
  id: z.int(),
  version: versionSchema,
  banned: z.boolean(),
});
export const playerSchema = playerBase.catchall(z.boolean());
export type Player = z.infer<typeof playerBase> & PlayerFlags;

/** Answer of PUT /users/{id}/server/players/{name} (the spec shows none): the saved player, at its new version. */
export const playerSaveResponseSchema = z.object({ message: z.string(), player: playerSchema });
export type PlayerSaveResponse = z.infer<typeof playerSaveResponseSchema>;

/**
 * Player list row (spec section 3); roles are the names of the Role.* flags that are true. banned
 * goes beyond the spec's row so that the Player Database can mark banned players and offer Unban.
 */
export const playerListRowSchema = z.object({
  id: z.int(),
  name: z.string(),
  level: z.int(),
  gems: z.int(),
  roles: z.array(z.string()),
  banned: z.boolean(),
});
export type PlayerListRow = z.infer<typeof playerListRowSchema>;

/** Answer of the engine's GET /players; total counts every match before offset/limit. */
export const playerListResponseSchema = z.object({ players: z.array(playerListRowSchema), total: z.int() });
export type PlayerListResponse = z.infer<typeof playerListResponseSchema>;
