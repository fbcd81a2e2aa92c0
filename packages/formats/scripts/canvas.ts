// A tiny 32x32 RGBA canvas and colour helpers for the procedural sprites.

/** An RGB colour, 0..255 per channel. */
export type Rgb = readonly [number, number, number];

/** Sprite side in pixels. */
export const SIZE = 32;

/** A 32x32 RGBA drawing surface, top-down. */
export class Sprite {
  readonly rgba = new Uint8Array(SIZE * SIZE * 4);

  set(x: number, y: number, c: Rgb): void {
    if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) return;
    this.rgba.set([c[0], c[1], c[2], 255], (y * SIZE + x) * 4);
  }
  clear(x: number, y: number): void {
    if (x >= 0 && y >= 0 && x < SIZE && y < SIZE) this.rgba.fill(0, (y * SIZE + x) * 4, (y * SIZE + x) * 4 + 4);
  }
  opaque(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < SIZE && y < SIZE && this.rgba[(y * SIZE + x) * 4 + 3] !== 0;
  }
  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) this.set(i, j, c);
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb | null): void {
    for (let y = Math.floor(cy - ry); y <= cy + ry; y++) {
      for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
        if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
        if (c) this.set(x, y, c);
        else this.clear(x, y);
      }
    }
  }
  line(x0: number, y0: number, x1: number, y1: number, c: Rgb, thick = 1): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let s = 0; s <= steps; s++) {
      const x = Math.round(x0 + ((x1 - x0) * s) / steps);
      const y = Math.round(y0 + ((y1 - y0) * s) / steps);
      this.rect(x - Math.floor(thick / 2), y - Math.floor(thick / 2), thick, thick, c);
    }
  }
  /** A 1px dark edge around everything drawn, which makes flat shapes read as sprites. */
  outline(c: Rgb): void {
    const edge: [number, number][] = [];
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        if (this.opaque(x, y)) continue;
        if (this.opaque(x - 1, y) || this.opaque(x + 1, y) || this.opaque(x, y - 1) || this.opaque(x, y + 1)) {
          edge.push([x, y]);
        }
      }
    }
    for (const [x, y] of edge) this.set(x, y, c);
  }
}

/** `c` scaled by `f` and clamped. */
export function shade(c: Rgb, f: number): Rgb {
  return [
    Math.min(255, Math.round(c[0] * f)),
    Math.min(255, Math.round(c[1] * f)),
    Math.min(255, Math.round(c[2] * f)),
  ];
}

/** 32-bit FNV-1a of a string, for colours and shape choices. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A deterministic PRNG (mulberry32) returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
