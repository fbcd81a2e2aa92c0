import { DEFAULT_WORLD_HEIGHT, DEFAULT_WORLD_WIDTH } from '@canopy/contract/engine-constants';
import { ITEM } from '../items/item-ids.ts';
import { emptyColumns, type TileColumns } from './tiles.ts';

/** A deterministic pseudo-random source in [0, 1) (mulberry32), so sample data is reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fresh world as the game makes one: sky over the top ~40%, dirt on cave background below with
 * scattered rock and lava near the bottom, bedrock floor, and the main door on the surface standing
 * on bedrock.
 */
export function generateWorld(
  random: () => number,
  width: number = DEFAULT_WORLD_WIDTH,
  height: number = DEFAULT_WORLD_HEIGHT,
): TileColumns {
  const c = emptyColumns(width * height);
  const surface = Math.floor(height * 0.4);
  const bedrockFrom = height - Math.max(1, Math.floor(height * 0.1));
  for (let y = surface; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      c.bg[i] = ITEM.caveBackground;
      if (y >= bedrockFrom) c.fg[i] = ITEM.bedrock;
      else if (y > surface + 4 && random() < 0.06) c.fg[i] = ITEM.rock;
      else if (y > bedrockFrom - 6 && random() < 0.08) c.fg[i] = ITEM.lava;
      else c.fg[i] = ITEM.dirt;
    }
  }
  const doorX = 1 + Math.floor(random() * Math.max(1, width - 2));
  if (surface > 0) {
    c.fg[(surface - 1) * width + doorX] = ITEM.mainDoor;
    c.o[(surface - 1) * width + doorX] = 1;
  }
  c.fg[surface * width + doorX] = ITEM.bedrock;
  return c;
}

/** Adds what players build: blocks above the surface, a world lock, and some signs' text. */
export function decorateWorld(c: TileColumns, width: number, random: () => number, itemIds: readonly number[]): void {
  const height = c.count / width;
  const surface = Math.floor(height * 0.4);
  const builds = Math.floor(random() * 400);
  for (let n = 0; n < builds; n++) {
    const x = Math.floor(random() * width);
    const y = Math.floor(random() * surface);
    const i = y * width + x;
    if (c.fg[i] !== ITEM.air) continue;
    c.fg[i] = itemIds[Math.floor(random() * itemIds.length)] ?? ITEM.dirt;
    if (random() < 0.5) c.bg[i] = ITEM.caveBackground;
  }
  const lockAt = Math.floor(random() * surface) * width + Math.floor(random() * width);
  c.fg[lockAt] = ITEM.worldLock;
  c.l[lockAt] = 1;
  if (random() < 0.3) c.extras.set(lockAt, { label: `Welcome! Visit #${Math.floor(random() * 1000)}` });
}
