import { WORLD_LABEL_MAX } from './world-shape.ts';

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
  // A strict object (worldBlockSchema): six keys, or seven with a label; any other key is refused.
  let keys = 0;
  for (const _ in b) keys++;
  if (keys === 6) return true;
  const label = b.label;
  return keys === 7 && typeof label === 'string' && label.length <= WORLD_LABEL_MAX;
}
