// Item ids of the game that the engine names (the bundled items.dat keeps them: packages/formats/scripts/catalog.ts).
export const ITEM = {
  air: 0,
  dirt: 2,
  lava: 4,
  mainDoor: 6,
  bedrock: 8,
  rock: 10,
  caveBackground: 14,
  grass: 16,
  fist: 18,
  wrench: 32,
  worldLock: 242,
} as const;

/** The fist and the wrench: what every player holds (the client's first two slots), never used up. */
export const STARTER_ITEMS: readonly number[] = [ITEM.fist, ITEM.wrench];
