// Builds the default items.dat and texture sheets in memory (generate-assets.ts writes them; a test checks
// that the committed files equal a fresh build).
import {
  ACTION_TYPE,
  createItem,
  encodeItemsDat,
  type Item,
  LATEST_ITEMS_DAT_VERSION,
  protonHash,
} from '../src/index.ts';
import { encodeRtpack } from '../src/node.ts';
import { type Sprite, shade } from './canvas.ts';
import { type Family, MAIN_COUNT, type MainEntry, mainEntries } from './catalog.ts';
import { baseColor, drawItem, drawSeed } from './sprites.ts';

/** Cells per sheet row, and rows per sheet: 16 x 16 cells of 32 px = a 512x512 page. */
export const SHEET_COLUMNS = 16;
export const SHEET_ROWS = 16;

const DEFAULT_ACTION: Record<Family, number> = {
  blank: ACTION_TYPE.foreground,
  solid: ACTION_TYPE.foreground,
  background: ACTION_TYPE.background,
  foreground: ACTION_TYPE.foreground,
  fist: ACTION_TYPE.fist,
  wrench: ACTION_TYPE.wrench,
  consumable: ACTION_TYPE.consumable,
  clothing: ACTION_TYPE.clothes,
  lock: ACTION_TYPE.lock,
};

const PARTS = ['head', 'body', 'legs', 'feet', 'face', 'hand', 'back', 'hair', 'neck'];

function describe(entry: MainEntry): string {
  switch (entry.family) {
    case 'blank':
      return 'Nothing at all.';
    case 'solid':
      return 'A solid block you can stand on.';
    case 'background':
      return 'A background tile that sits behind blocks.';
    case 'foreground':
      return 'A decorative block you can walk through.';
    case 'fist':
      return 'Punch blocks to break them.';
    case 'wrench':
      return 'Wrench blocks and players to see their options.';
    case 'consumable':
      return 'Use it up for a small effect.';
    case 'clothing':
      return `Wear it on your ${PARTS[entry.clothingType ?? 0]}.`;
    case 'lock':
      return entry.name === 'World Lock' ? 'Locks a whole world to its owner.' : 'Locks an area to its owner.';
  }
}

function breakHits(entry: MainEntry): number {
  if (entry.rarity === 999) return 0; // the spec's "0 means unbreakable"
  if (entry.family === 'solid') return 3 + ((entry.id / 2) % 5);
  return { background: 3, foreground: 2, lock: 4 }[entry.family as string] ?? 1;
}

function rgbU32(c: readonly [number, number, number]): number {
  return (0xff000000 | (c[0] << 16) | (c[1] << 8) | c[2]) >>> 0;
}

/** The items of one pair (main item and its seed), given where their icons are. */
function pairItems(
  entry: MainEntry,
  cell: (id: number) => Pick<Item, 'texture' | 'textureHash' | 'textureX' | 'textureY'>,
): Item[] {
  const color = baseColor(entry);
  const tradeable = entry.rarity !== 999;
  const shared = {
    rarity: entry.rarity,
    maxAmount: entry.family === 'fist' || entry.family === 'wrench' ? 1 : 200,
    growTime: tradeable ? entry.rarity ** 3 + 30 : 0,
    seedColor: rgbU32(color),
    seedOverlayColor: rgbU32(shade(color, 0.7)),
    seedBase: (entry.id / 2) % 16,
    seedOverlay: (entry.id / 2) % 8,
    treeBase: (entry.id / 2) % 8,
    treeLeaves: (entry.id / 2) % 12,
  };
  const main = createItem(entry.id, {
    ...shared,
    ...cell(entry.id),
    name: entry.name,
    actionType: entry.actionType ?? DEFAULT_ACTION[entry.family],
    collisionType: entry.family === 'solid' || entry.family === 'lock' ? 1 : 0,
    breakHits: breakHits(entry),
    clothingType: entry.clothingType ?? 0,
    info: describe(entry),
  });
  const seed = createItem(entry.id + 1, {
    ...shared,
    ...cell(entry.id + 1),
    name: `${entry.name} Seed`,
    actionType: ACTION_TYPE.seed,
    breakHits: tradeable ? 1 : 0,
    info: `Plant it to grow a ${entry.name} tree.`,
  });
  return [main, seed];
}

/** A sheet of sprites laid out row by row, `SHEET_COLUMNS` wide; its height is only as tall as needed. */
function sheetImage(sprites: Sprite[]): { width: number; height: number; rgba: Uint8Array } {
  const width = SHEET_COLUMNS * 32;
  const height = Math.ceil(sprites.length / SHEET_COLUMNS) * 32;
  const rgba = new Uint8Array(width * height * 4);
  sprites.forEach((sprite, i) => {
    const left = (i % SHEET_COLUMNS) * 32;
    const top = Math.floor(i / SHEET_COLUMNS) * 32;
    for (let row = 0; row < 32; row++) {
      rgba.set(sprite.rgba.subarray(row * 128, row * 128 + 128), ((top + row) * width + left) * 4);
    }
  });
  return { width, height, rgba };
}

/** The generated files keyed by their path under assets/. */
export function buildAssets(): Map<string, Uint8Array> {
  const entries = mainEntries();
  const sprites = entries.flatMap((e) => [drawItem(e), drawSeed(e)]);
  const perSheet = SHEET_COLUMNS * SHEET_ROWS;
  const files = new Map<string, Uint8Array>();
  const sheets: { texture: string; textureHash: number }[] = [];
  for (let page = 0; page * perSheet < sprites.length; page++) {
    const texture = `tiles_page${page + 1}.rttex`;
    const bytes = encodeRtpack(sheetImage(sprites.slice(page * perSheet, (page + 1) * perSheet)));
    files.set(`cache/${texture}`, bytes);
    sheets.push({ texture, textureHash: protonHash(bytes) });
  }
  // Item ids equal sprite indexes (ids run 0..2*MAIN_COUNT-1 without gaps).
  const cell = (id: number) => {
    const sheet = sheets[Math.floor(id / perSheet)] as { texture: string; textureHash: number };
    const inPage = id % perSheet;
    return { ...sheet, textureX: inPage % SHEET_COLUMNS, textureY: Math.floor(inPage / SHEET_COLUMNS) };
  };
  const items = entries.flatMap((e) => pairItems(e, cell));
  if (items.length !== MAIN_COUNT * 2) throw new Error(`expected ${MAIN_COUNT * 2} items, built ${items.length}`);
  files.set('items.dat', encodeItemsDat({ version: LATEST_ITEMS_DAT_VERSION, items }));
  return files;
}
