import { z } from 'zod';
import { WORLD_LOCKED, WORLD_OPEN } from './engine-constants.ts';
import { fastArray } from './fast-array.ts';
import { isWorldBlock } from './world-block-check.ts';
import { WORLD_LABEL_MAX, WORLD_MAX_SIDE, worldShapeMessages, worldShapeProblem } from './world-shape.ts';

// Defined in the zod-free module an idle engine loads (engine-constants.ts); exported here as before.
export {
  DEFAULT_MUSIC_BPM,
  DEFAULT_WORLD_COLOR,
  DEFAULT_WORLD_HEIGHT,
  DEFAULT_WORLD_WIDTH,
  defaultWorldMeta,
  WORLD_LOCKED,
  WORLD_OPEN,
  weatherOptions,
} from './engine-constants.ts';

export {
  WORLD_LABEL_MAX,
  WORLD_MAX_SIDE,
  WORLD_MAX_TILES,
  WORLD_TILE_KEYS,
  worldShapeMessages,
  worldShapeProblem,
} from './world-shape.ts';
export const WORLD_NAME_MAX = 24;

/** A world name: letters or digits, compared case-insensitively and stored upper-case. */
export const worldNameSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(new RegExp(`^[A-Z0-9]{1,${WORLD_NAME_MAX}}$`), `World name must be 1-${WORLD_NAME_MAX} letters or digits.`);

const growIdOrEmpty = (field: string) =>
  z
    .string()
    .trim()
    .regex(/^([A-Za-z0-9]{3,20})?$/, `${field} must be a GrowID (3-20 letters or digits) or empty.`);

/**
 * A whole number from min to max whose every problem is one sentence naming the field as the
 * editors label it ('Red must be between 0 and 255.'): the panel shows these beside the field and
 * the api answers with the same text.
 */
export function boundedInt(label: string, min: number, max: number) {
  const range = `${label} must be between ${min} and ${max}.`;
  return z
    .int({
      error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be a whole number.`),
    })
    .min(min, range)
    .max(max, range);
}

/** An item id as the game stores it in a tile (u16). */
export const itemIdSchema = boundedInt('Item id', 0, 65535);
const bit = (field: string) => z.union([z.literal(0), z.literal(1)], { error: `${field} must be 0 or 1.` });
const u32 = (label: string) => boundedInt(label, 0, 0xffffffff);
const byte = (label: string) => boundedInt(label, 0, 255);

/**
 * One tile of a world, row by row from the top left: foreground and background item ids, o (open),
 * l (locked), fl (flags), if_c (infinity cycle) and an optional label (a sign's or lock's text, as the
 * sample worlds have). A strict object: any other property is refused by name (issue 21), where a
 * catch-all once stored whatever a bulk edit or a raw JSON edit added.
 */
export const worldBlockSchema = z.strictObject(
  {
    fg: itemIdSchema,
    bg: itemIdSchema,
    o: bit('o'),
    l: bit('l'),
    fl: u32('fl'),
    if_c: boundedInt('if_c', 0, 0x7fffffff),
    label: z.string({ error: 'label must be text.' }).max(WORLD_LABEL_MAX, worldShapeMessages.labelTooLong).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? worldShapeMessages.unknownTileField(issue.keys) : undefined,
  },
);
export type WorldBlock = z.infer<typeof worldBlockSchema>;

const detailShape = {
  owner: growIdOrEmpty('Owner'),
  entry_level: boundedInt('Entry Level', 1, 1000),
  ct: byte('Category'),
  d_weather: z.union([z.literal(WORLD_OPEN), z.literal(WORLD_LOCKED)], {
    error: `d_weather must be ${WORLD_LOCKED} (locked) or ${WORLD_OPEN} (open).`,
  }),
  music_bpm: boundedInt('Music BPM', 1, 1000),
  w_s: u32('World Flags'),
  r: byte('Red'),
  g: byte('Green'),
  b: byte('Blue'),
  weather: byte('Weather'),
  admins: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9]{3,20}$/, 'Each admin must be a GrowID (3-20 letters or digits).'),
    )
    .max(100, 'A world can have at most 100 admins.'),
  width: boundedInt('Width', 1, WORLD_MAX_SIDE),
  height: boundedInt('Height', 1, WORLD_MAX_SIDE),
  // 40,000 tiles: checked by a loop, and zod only explains the tiles the loop refuses.
  blocks: fastArray(worldBlockSchema, isWorldBlock),
};

type Shape = z.infer<z.ZodObject<typeof detailShape>>;

function checkWorld(w: Pick<Shape, 'admins' | 'width' | 'height' | 'blocks'>, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  for (const [i, admin] of w.admins.entries()) {
    const key = admin.toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['admins', i], message: `Duplicate admin "${admin}".` });
    seen.add(key);
  }
  const expected = w.width * w.height;
  if (w.blocks.length !== expected)
    ctx.addIssue({
      code: 'custom',
      path: ['blocks'],
      message: worldShapeMessages.blocksCount(expected, w.blocks.length),
    });
}

/** The engine's revision of a world or player (ADR 0035): a whole-object save names the one it read. */
export const versionSchema = z.int({ error: 'version must be the whole number the GET answered.' }).positive({
  error: 'version must be the whole number the GET answered.',
});

const worldPutObject = z
  .strictObject({
    ...detailShape,
    name: z.string().optional(),
    id: z.int().optional(),
    version: versionSchema.optional(),
  })
  .superRefine(checkWorld);

/**
 * Body of the engine's PUT /worlds/:name: the whole world. name and id may be present (a GET
 * round-trips them) but are not changed by a PUT; version is the revision it was read at (required
 * to replace a world that exists, unless sent as If-Match); unknown fields are refused. The tile list's
 * length is checked against the size before anything else (worldShapeProblem), so a list far too long
 * costs its length check only.
 */
export const worldPutSchema = z
  .unknown()
  .superRefine((input, ctx) => {
    const problem = worldShapeProblem(input);
    if (problem) ctx.addIssue({ code: 'custom', path: ['blocks'], message: problem });
  })
  .pipe(worldPutObject);
export type WorldPut = z.infer<typeof worldPutSchema>;

/** Answer of PUT /users/{id}/server/worlds/{name} (the spec shows none): the world's new version, not the world. */
export const worldSaveResponseSchema = z.object({ message: z.string(), version: versionSchema });
export type WorldSaveResponse = z.infer<typeof worldSaveResponseSchema>;

/** A world as the engine returns it (world detail of the spec, plus name, id and size). */
export const worldSchema = z.object({ name: z.string(), id: z.int(), version: versionSchema, ...detailShape });
export type World = z.infer<typeof worldSchema>;

/** A world's settings without its name, id and tiles. */
export type WorldMeta = Omit<World, 'name' | 'id' | 'version' | 'blocks'>;

/** World list row (spec section 3); locked means d_weather is 6. */
export const worldListRowSchema = z.object({
  name: z.string(),
  owner: z.string(),
  players: z.int(),
  locked: z.boolean(),
  id: z.int(),
});
export type WorldListRow = z.infer<typeof worldListRowSchema>;

/** Answer of the engine's GET /worlds; total counts every match before offset/limit. */
export const worldListResponseSchema = z.object({ worlds: z.array(worldListRowSchema), total: z.int() });
export type WorldListResponse = z.infer<typeof worldListResponseSchema>;
