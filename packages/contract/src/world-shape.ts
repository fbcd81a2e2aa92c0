// zod-free, and imported by world.ts (not the other way round), so the schema can run it first.

/** Largest side a world may have; keeps one world's tiles within a few hundred kilobytes. */
export const WORLD_MAX_SIDE = 200;

/** The most tiles a world may have: the largest side squared. */
export const WORLD_MAX_TILES = WORLD_MAX_SIDE * WORLD_MAX_SIDE;

/** The longest tile label (a sign's or lock's text). */
export const WORLD_LABEL_MAX = 256;

/** The properties a tile may have; any other is refused (worldShapeMessages.unknownTileField). */
export const WORLD_TILE_KEYS = ['fg', 'bg', 'o', 'l', 'fl', 'if_c', 'label'] as const;

/** Texts of a world body whose tile list does not fit its size. */
export const worldShapeMessages = {
  /** A whole-world save of an existing world keeps its size (the engine decides, in the save's transaction). */
  sizeFixed: (name: string, width: number, height: number) =>
    `A world's size cannot be changed: ${name} is ${width} × ${height}.`,
  labelTooLong: `label must be at most ${WORLD_LABEL_MAX} characters.`,
  unknownTileField: (keys: readonly string[]) =>
    `Unknown tile propert${keys.length > 1 ? 'ies' : 'y'} ${keys.map((k) => `"${k}"`).join(', ')}: a tile has ${WORLD_TILE_KEYS.join(', ')} only.`,
  blocksCount: (expected: number, got: number) => `blocks must hold width × height = ${expected} tiles, got ${got}.`,
  tooManyBlocks: (got: number) =>
    `blocks must hold at most ${WORLD_MAX_TILES} tiles (a ${WORLD_MAX_SIDE} × ${WORLD_MAX_SIDE} world), got ${got}.`,
} as const;

const isSide = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= WORLD_MAX_SIDE;

/**
 * The check of a world body that comes before every other one, from list lengths alone: `blocks` must hold
 * exactly width × height tiles (when both are valid sides), and never more than WORLD_MAX_TILES. Without it a
 * 3 MB body of 1.7 million zeros was explained tile by tile (issue 21). Undefined when the lengths fit; any
 * other problem (a missing width, a wrong tile) is the schema's to word.
 */
export function worldShapeProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const { width, height, blocks } = input as Record<string, unknown>;
  if (!Array.isArray(blocks)) return undefined;
  if (isSide(width) && isSide(height)) {
    const expected = width * height;
    return blocks.length === expected ? undefined : worldShapeMessages.blocksCount(expected, blocks.length);
  }
  return blocks.length > WORLD_MAX_TILES ? worldShapeMessages.tooManyBlocks(blocks.length) : undefined;
}
