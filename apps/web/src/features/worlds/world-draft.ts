import { asArray, type JsonObject } from '../../lib/json-draft.ts';

/** Block properties the bulk edit suggests; a tile has no others (worldBlockSchema refuses any other name). */
export const blockProperties = ['o', 'l', 'fl', 'if_c', 'fg', 'bg', 'label'] as const;

/** Bits of w_s offered as checkboxes; the number field edits the whole mask. */
export const WORLD_FLAG_BITS = 8;

/** World admins as saved: trimmed, blanks dropped, duplicates (case-insensitive) removed, first spelling kept. */
export function normaliseAdmins(admins: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const entry of admins) {
    if (typeof entry !== 'string') continue;
    const admin = entry.trim();
    const key = admin.toLowerCase();
    if (!admin || seen.has(key)) continue;
    seen.add(key);
    result.push(admin);
  }
  return result;
}

const truthy = new Set(['true', 'yes', 'on']);

/**
 * The value the bulk edit writes (spec section 5): o and l become 1 or 0 ('1', 'true', 'yes', 'on'
 * or any non-zero number is 1); other properties become numbers when the text is numeric, else
 * stay the raw text.
 */
export function coerceBlockValue(property: string, raw: string): number | string {
  const text = raw.trim();
  const numeric = text !== '' && Number.isFinite(Number(text));
  if (property === 'o' || property === 'l') {
    if (numeric) return Number(text) !== 0 ? 1 : 0;
    return truthy.has(text.toLowerCase()) ? 1 : 0;
  }
  return numeric ? Number(text) : raw;
}

/** Every block with `property` set to `value` (blocks that are not objects are kept as they are). */
export function applyBulkEdit(blocks: readonly unknown[], property: string, value: number | string): unknown[] {
  return blocks.map((block) =>
    block !== null && typeof block === 'object' && !Array.isArray(block) ? { ...block, [property]: value } : block,
  );
}

/** The world body to validate and send: the draft with its admins normalised. */
export function worldBody(draft: JsonObject): JsonObject {
  return { ...draft, admins: normaliseAdmins(asArray(draft.admins)) };
}

/** The mask with one bit flipped (kept an unsigned 32-bit value). */
export function toggleBit(mask: number, bit: number): number {
  return ((Number.isFinite(mask) ? mask : 0) ^ (1 << bit)) >>> 0;
}

/** True when bit `bit` of the mask is set. */
export function hasBit(mask: number, bit: number): boolean {
  return Number.isFinite(mask) && ((mask >>> bit) & 1) === 1;
}

const clampByte = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(Math.round(n), 0), 255) : 0);

/** '#rrggbb' of a background colour (out-of-range channels are clamped for the preview). */
export function rgbToHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => clampByte(c).toString(16).padStart(2, '0')).join('')}`;
}

/** The channels of '#rrggbb', or null for anything else. */
export function hexToRgb(hex: string): { r: number; g: number; b: number } | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  return { r: Number.parseInt(m[1] ?? '', 16), g: Number.parseInt(m[2] ?? '', 16), b: Number.parseInt(m[3] ?? '', 16) };
}
