// What the default items.dat contains: one "main" item per even id, each followed by its seed (id + 1),
// as in the game. A few ids match the game's well-known ones (Dirt 2, Fist 18, Wrench 32, World Lock 242)
// so that engine code written against those ids works with the defaults.

/** The drawing and item-type family of a main item. */
export type Family =
  | 'blank'
  | 'solid'
  | 'background'
  | 'foreground'
  | 'fist'
  | 'wrench'
  | 'consumable'
  | 'clothing'
  | 'lock';

/** A main item; its seed is derived from it. */
export interface MainEntry {
  id: number;
  name: string;
  family: Family;
  /** 1..20, or 999 for untradeable items. */
  rarity: number;
  /** 0..8 for clothing. */
  clothingType?: number;
  /** The game's actionType when it is not the family's default. */
  actionType?: number;
  /** Base colour as 0xRRGGBB; derived from the name when absent. */
  color?: number;
}

/** How many main items (and so seeds) the file holds: ids 0..2*MAIN_COUNT-1. */
export const MAIN_COUNT = 168;

const UNTRADEABLE = 999;

const FIXED: MainEntry[] = [
  { id: 0, name: 'Blank', family: 'blank', rarity: UNTRADEABLE },
  { id: 2, name: 'Dirt', family: 'solid', rarity: 1, color: 0x8b5a2b },
  { id: 4, name: 'Lava', family: 'solid', rarity: 4, actionType: 16, color: 0xe8541c },
  { id: 6, name: 'Main Door', family: 'foreground', rarity: UNTRADEABLE, actionType: 13, color: 0x6b4423 },
  { id: 8, name: 'Bedrock', family: 'solid', rarity: UNTRADEABLE, actionType: 15, color: 0x3a3a40 },
  { id: 10, name: 'Rock', family: 'solid', rarity: 1, color: 0x8a8a8a },
  { id: 12, name: 'Door', family: 'foreground', rarity: 2, actionType: 2, color: 0x9c6b3c },
  { id: 14, name: 'Cave Background', family: 'background', rarity: 1, color: 0x5a3d22 },
  { id: 16, name: 'Grass', family: 'foreground', rarity: 2, color: 0x4caf50 },
  { id: 18, name: 'Fist', family: 'fist', rarity: UNTRADEABLE, color: 0xf1c27d },
  { id: 20, name: 'Wooden Sign', family: 'foreground', rarity: 3, actionType: 10, color: 0xb07a45 },
  { id: 32, name: 'Wrench', family: 'wrench', rarity: UNTRADEABLE, color: 0x9aa4ad },
  { id: 202, name: 'Small Lock', family: 'lock', rarity: 5, color: 0xa0a0a8 },
  { id: 204, name: 'Big Lock', family: 'lock', rarity: 9, color: 0xc0c0c8 },
  { id: 206, name: 'Huge Lock', family: 'lock', rarity: 14, color: 0xd8d8e0 },
  { id: 242, name: 'World Lock', family: 'lock', rarity: 20, color: 0xf2c230 },
];

/** Splits a comma-separated list of names. */
function names(text: string): string[] {
  return text.split(',').map((name) => name.trim());
}

const SOLIDS = names(`
  Sand, Clay, Granite, Marble, Brick, Stone Brick, Wooden Block, Glass Block, Ice Block, Snow Block,
  Obsidian, Copper Block, Iron Block, Gold Block, Crystal Block, Mossy Stone, Sandstone, Basalt,
  Coral Block, Mushroom Block, Hay Bale, Cloud Block, Slime Block, Cheese Block, Neon Block,
  Checker Block, Steel Plate, Amber Block, Jade Block, Ruby Block, Sapphire Block, Emerald Block,
  Pearl Block, Quartz Block, Coal Block, Salt Block, Red Wool, Blue Wool, Green Wool, Yellow Wool
`);

const BACKGROUNDS = names(`
  Wooden Background, Stone Background, Brick Background, Striped Wallpaper, Dotted Wallpaper,
  Night Sky Background, Sunset Background, Ocean Background, Forest Background, Desert Background,
  Castle Wall, Bamboo Wall, Tile Wall, Paper Wall, Metal Wall, Glass Wall, Log Wall, Moss Wall
`);

const FOREGROUNDS = names(`
  Ladder, Torch, Flower Pot, Bookshelf, Chair, Table, Lamp, Barrel, Crate, Fence, Mailbox, Bench,
  Treasure Chest, Portrait, Wall Clock, Cactus, Bush, Tree Stump, Lantern, Bulletin Board, Spike Trap,
  Trampoline, Checkpoint, Window
`);

const CONSUMABLES = names(`
  Apple, Cherry, Bread, Cake, Pizza Slice, Milk Bottle, Honey Jar, Cookie, Healing Potion,
  Speed Potion, Fireworks, Snowball, Water Bucket, Fertilizer, Carrot, Cheese Wedge
`);

/** Clothing names per clothing type 0 Hat .. 8 Neck. */
const CLOTHING: string[][] = [
  names('Red Cap, Straw Hat, Top Hat, Wizard Hat, Beanie, Crown'),
  names('White T-Shirt, Blue Shirt, Striped Sweater, Lab Coat, Hoodie, Tuxedo Jacket'),
  names('Jeans, Cargo Shorts, Black Trousers, Skirt, Overalls, Track Pants'),
  names('Sneakers, Boots, Sandals, Slippers, Roller Skates, Flippers'),
  names('Sunglasses, Monocle, Eye Patch, Mustache, Clown Nose, Goggles'),
  names('Wooden Sword, Magic Wand, Fishing Rod, Umbrella, Shovel, Frying Pan'),
  names('Angel Wings, Cape, Backpack, Bat Wings, Jetpack, Quiver'),
  names('Spiky Hair, Ponytail, Mohawk, Afro, Braids, Bob Cut'),
  names('Scarf, Bow Tie, Necklace, Medal, Flower Lei, Cravat'),
];

/** Every main item, ordered by id; deterministic. */
export function mainEntries(): MainEntry[] {
  const free: Omit<MainEntry, 'id' | 'rarity'>[] = [
    ...SOLIDS.map((name) => ({ name, family: 'solid' as const })),
    ...BACKGROUNDS.map((name) => ({ name, family: 'background' as const })),
    ...FOREGROUNDS.map((name) => ({ name, family: 'foreground' as const })),
    ...CONSUMABLES.map((name) => ({ name, family: 'consumable' as const })),
    ...CLOTHING.flatMap((names, clothingType) =>
      names.map((name) => ({ name, family: 'clothing' as const, clothingType })),
    ),
  ];
  const fixed = new Map(FIXED.map((e) => [e.id, e]));
  const out: MainEntry[] = [];
  let next = 0;
  for (let pair = 0; pair < MAIN_COUNT; pair++) {
    const id = pair * 2;
    const known = fixed.get(id);
    if (known) {
      out.push(known);
      continue;
    }
    const entry = free[next];
    if (!entry) throw new Error(`catalog: ran out of names at id ${id}`);
    // 7 is coprime with 20, so every run of 20 consecutive items covers rarities 1..20.
    out.push({ ...entry, id, rarity: 1 + ((next * 7) % 20) });
    next++;
  }
  if (next !== free.length) throw new Error(`catalog: ${free.length - next} names left over`);
  return out;
}
