// Procedural 32x32 item sprites for the default texture sheets: simple shapes, no randomness beyond a
// PRNG seeded by the item id, so every run draws the same pixels.
import { fnv1a, prng, type Rgb, SIZE, Sprite, shade } from './canvas.ts';
import type { MainEntry } from './catalog.ts';

/** The entry's colour: its own, or a saturated colour picked by its name. */
export function baseColor(entry: MainEntry): Rgb {
  if (entry.color !== undefined) return [(entry.color >> 16) & 255, (entry.color >> 8) & 255, entry.color & 255];
  const h = fnv1a(entry.name);
  const hue = (h % 360) / 60;
  const s = 0.55 + ((h >>> 9) % 25) / 100;
  const v = 0.7 + ((h >>> 17) % 20) / 100;
  const f = hue - Math.floor(hue);
  const [p, q, t] = [v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))];
  const rgb = [
    [v, t, p],
    [q, v, p],
    [p, v, t],
    [p, q, v],
    [t, p, v],
    [v, p, q],
  ][Math.floor(hue) % 6] as number[];
  return rgb.map((x) => Math.round(x * 255)) as unknown as Rgb;
}

const DARK: Rgb = [32, 24, 20];
const LEAF: Rgb = [70, 160, 60];

function block(s: Sprite, c: Rgb, id: number): void {
  s.rect(0, 0, SIZE, SIZE, c);
  const rand = prng(id);
  for (let i = 0; i < 14; i++) s.rect(3 + Math.floor(rand() * 25), 3 + Math.floor(rand() * 25), 2, 2, shade(c, 0.8));
  s.rect(2, 2, SIZE - 4, 1, shade(c, 1.25));
  s.rect(2, 2, 1, SIZE - 4, shade(c, 1.25));
  for (let i = 0; i < 2; i++) {
    s.rect(i, i, SIZE - 2 * i, 1, shade(c, 0.6));
    s.rect(i, SIZE - 1 - i, SIZE - 2 * i, 1, shade(c, 0.6));
    s.rect(i, i, 1, SIZE - 2 * i, shade(c, 0.6));
    s.rect(SIZE - 1 - i, i, 1, SIZE - 2 * i, shade(c, 0.6));
  }
}

function background(s: Sprite, c: Rgb): void {
  const base = shade(c, 0.7);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) s.set(x, y, (x + y) % 8 < 2 ? shade(c, 0.55) : base);
}

function foreground(s: Sprite, entry: MainEntry, c: Rgb): void {
  const name = entry.name;
  if (/Ladder/.test(name)) {
    s.rect(7, 1, 3, 30, c);
    s.rect(22, 1, 3, 30, c);
    for (let y = 4; y < 30; y += 6) s.rect(10, y, 12, 2, shade(c, 0.85));
  } else if (/Sign|Board|Portrait|Window|Clock/.test(name)) {
    s.rect(14, 18, 4, 13, shade(c, 0.7));
    s.rect(3, 4, 26, 16, c);
    for (let y = 8; y < 18; y += 4) s.rect(7, y, 18, 1, shade(c, 0.55));
  } else if (/Door/.test(name)) {
    s.rect(7, 2, 18, 29, c);
    s.rect(10, 5, 12, 10, shade(c, 0.8));
    s.rect(20, 17, 2, 2, [230, 200, 60]);
  } else if (/Grass|Bush|Cactus/.test(name)) {
    for (let x = 2; x < 30; x += 4) s.line(x, 31, x + ((x * 7) % 5) - 2, 12 + ((x * 5) % 9), c, 2);
  } else if (fnv1a(name) % 2 === 0) {
    s.rect(4, 6, 24, 24, c); // crate
    s.line(6, 8, 25, 27, shade(c, 0.6), 2);
    s.line(25, 8, 6, 27, shade(c, 0.6), 2);
  } else {
    s.rect(14, 14, 4, 17, shade(c, 0.6)); // lamp on a post
    s.ellipse(16, 10, 8, 8, c);
    s.ellipse(13, 7, 2, 2, shade(c, 1.4));
  }
  s.outline(DARK);
}

function clothing(s: Sprite, type: number, c: Rgb): void {
  const d = shade(c, 0.7);
  const shapes: (() => void)[] = [
    () => {
      s.rect(3, 20, 26, 4, d); // hat: brim and crown
      s.rect(8, 8, 16, 13, c);
    },
    () => {
      s.rect(9, 6, 14, 22, c); // shirt: body, sleeves, collar
      s.rect(3, 6, 6, 9, c);
      s.rect(23, 6, 6, 9, c);
      s.rect(13, 6, 6, 3, d);
    },
    () => {
      s.rect(8, 4, 16, 6, c); // pants
      s.rect(8, 10, 7, 19, c);
      s.rect(17, 10, 7, 19, c);
    },
    () => {
      for (const x of [3, 17]) {
        s.rect(x, 10, 6, 12, c); // shoes: two boots
        s.rect(x, 20, 12, 6, c);
        s.rect(x, 24, 12, 2, d);
      }
    },
    () => {
      s.ellipse(9, 16, 6, 5, c); // face: glasses
      s.ellipse(23, 16, 6, 5, c);
      s.rect(14, 14, 4, 2, d);
    },
    () => {
      s.line(6, 26, 26, 6, c, 3); // hand: sword with guard
      s.line(6, 20, 12, 26, d, 2);
      s.rect(4, 25, 4, 4, d);
    },
    () => {
      s.ellipse(9, 15, 7, 12, c); // back: wings
      s.ellipse(23, 15, 7, 12, c);
      s.ellipse(16, 15, 3, 5, d);
    },
    () => {
      s.ellipse(16, 16, 12, 10, c); // hair with spikes
      for (let x = 6; x <= 26; x += 5) s.line(x, 8, x + 2, 2, c, 3);
      s.ellipse(16, 21, 8, 5, null);
    },
    () => {
      s.line(5, 8, 16, 22, c, 4); // neck: scarf
      s.line(27, 8, 16, 22, c, 4);
      s.rect(14, 20, 5, 10, d);
    },
  ];
  shapes[type]?.();
  s.outline(DARK);
}

/** The icon of a main item. */
export function drawItem(entry: MainEntry): Sprite {
  const s = new Sprite();
  const c = baseColor(entry);
  switch (entry.family) {
    case 'blank':
      break;
    case 'solid':
      block(s, c, entry.id);
      break;
    case 'background':
      background(s, c);
      break;
    case 'foreground':
      foreground(s, entry, c);
      break;
    case 'fist':
      s.ellipse(16, 16, 11, 10, c);
      for (let x = 9; x <= 21; x += 4) s.rect(x, 9, 1, 8, shade(c, 0.7));
      s.outline(DARK);
      break;
    case 'wrench':
      s.line(7, 25, 21, 11, c, 4);
      s.ellipse(22, 10, 7, 7, c);
      s.ellipse(25, 7, 3, 3, null);
      s.outline(DARK);
      break;
    case 'consumable':
      if (/Potion|Bottle|Jar|Bucket/.test(entry.name)) {
        s.rect(13, 4, 6, 6, shade(c, 0.6));
        s.ellipse(16, 20, 10, 10, c);
      } else {
        s.ellipse(16, 18, 10, 10, c);
        s.ellipse(20, 7, 4, 2, LEAF);
      }
      s.ellipse(12, 15, 2, 2, shade(c, 1.5));
      s.outline(DARK);
      break;
    case 'clothing':
      clothing(s, entry.clothingType ?? 0, c);
      break;
    case 'lock':
      s.ellipse(16, 12, 9, 9, shade(c, 0.8));
      s.ellipse(16, 12, 5, 5, null);
      s.rect(6, 13, 20, 16, c);
      s.rect(15, 18, 3, 6, DARK);
      s.outline(DARK);
      break;
  }
  return s;
}

/** The seed of a main item: a seed in the item's colour with a small leaf. */
export function drawSeed(entry: MainEntry): Sprite {
  const s = new Sprite();
  s.line(16, 14, 19, 7, LEAF, 2);
  s.ellipse(22, 7, 4, 2, LEAF);
  s.ellipse(16, 20, 8, 7, baseColor(entry));
  s.ellipse(13, 17, 2, 2, shade(baseColor(entry), 1.4));
  s.outline(DARK);
  return s;
}
