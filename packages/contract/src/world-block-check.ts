const BASE = new Set(['fg', 'bg', 'o', 'l', 'fl', 'if_c']);
const inRange = (v: unknown, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/**
 * The fast check of one tile for `worldBlockSchema` (see fastArray): the same rules written as a
 * loop. It may refuse more than the schema (the schema then decides), never less.
 */
export function isWorldBlock(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const b = value as Record<string, unknown>;
  if (!inRange(b.fg, 65535) || !inRange(b.bg, 65535) || !inRange(b.fl, 0xffffffff) || !inRange(b.if_c, 0x7fffffff))
    return false;
  if ((b.o !== 0 && b.o !== 1) || (b.l !== 0 && b.l !== 1)) return false;
  for (const key in b) {
    if (BASE.has(key)) continue;
    const extra = b[key];
    if (typeof extra === 'number' ? !Number.isFinite(extra) : typeof extra !== 'string' || extra.length > 256)
      return false;
  }
  return true;
}
