/** Slots a backpack shows; the stored inventory has no size of its own yet. */
export const BACKPACK_SIZE = 100;

/** `u8 version (1); u32 backpackSize; u16 count;` then per item `u16 id; u8 amount; u8 flags (0)`. */
export function encodeInventory(items: readonly (readonly [number, number])[], backpackSize = BACKPACK_SIZE): Buffer {
  const kept = items.filter(([, amount]) => amount > 0).slice(0, 0xffff);
  const out = Buffer.alloc(1 + 4 + 2 + kept.length * 4);
  let at = out.writeUInt8(1, 0);
  at = out.writeUInt32LE(backpackSize, at);
  at = out.writeUInt16LE(kept.length, at);
  for (const [id, amount] of kept) {
    at = out.writeUInt16LE(id & 0xffff, at);
    at = out.writeUInt8(Math.min(255, amount), at);
    at += 1;
  }
  return out;
}
