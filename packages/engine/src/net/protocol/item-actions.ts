/**
 * items.dat action types the game layer acts on (the `actionType` byte; @canopy/formats names the same values,
 * but the engine's hot path must not load that package). Numbers from the domain notes' items.dat section.
 */
export const ACTION = {
  fist: 0,
  wrench: 1,
  door: 2,
  lock: 3,
  deadly: 6,
  trampoline: 7,
  sign: 10,
  mainDoor: 13,
  platform: 14,
  bedrock: 15,
  lava: 16,
  foreground: 17,
  background: 18,
  seed: 19,
} as const;

/** Plain blocks: no extra data, nothing to open or own. */
const PLAIN_FOREGROUND = new Set<number>([
  ACTION.deadly,
  ACTION.trampoline,
  ACTION.platform,
  ACTION.lava,
  ACTION.foreground,
]);

/**
 * The layer a player may place an item on from the inventory. Only plain blocks and backgrounds: doors, locks,
 * signs and seeds carry extra data and behaviour the engine does not have yet, so they are not placed.
 */
export function placeLayer(action: number | undefined): 'fg' | 'bg' | undefined {
  if (action === ACTION.background) return 'bg';
  return action !== undefined && PLAIN_FOREGROUND.has(action) ? 'fg' : undefined;
}
