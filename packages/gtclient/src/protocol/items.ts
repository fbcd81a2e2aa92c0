// items.dat as the client handles it: the Proton hash the server announces in OnSuperMainStartAcceptLogon…, and
// the body of tank type 16 (zlib, with the tank's value field = the uncompressed size, as the real server sends it).

import { inflateSync } from 'node:zlib';
import { DecodeError } from './reader.ts';
import type { VariantValue } from './variant.ts';

/** Proton hash: h = 0x55555555; per byte h = (h >>> 27) + (h << 5) + b, all unsigned 32-bit. */
export function protonHash(data: Uint8Array): number {
  let h = 0x55555555;
  for (const b of data) h = ((h >>> 27) + (h << 5) + b) >>> 0;
  return h;
}

/** Inflates the extended data of a type 16 tank; null when it is not a zlib stream (or inflates past `limit`). */
export function inflateItems(extended: Buffer, limit = 64 * 1024 * 1024): Buffer | null {
  try {
    return inflateSync(extended, { maxOutputLength: limit });
  } catch {
    return null;
  }
}

/** Reads a type 16 tank: zlib data whose uncompressed size is the tank's value field; throws otherwise. */
export function readItemsTank(tank: { value: number; extended: Buffer }): Buffer {
  const items = inflateItems(tank.extended);
  if (!items) throw new DecodeError('items.dat refresh: the tank does not hold a zlib stream');
  if (tank.value !== items.length) {
    throw new DecodeError(`items.dat refresh: value field ${tank.value} is not the uncompressed size ${items.length}`);
  }
  return items;
}

/** What OnSuperMainStartAcceptLogonHrdxs47254722215a tells the client (domain notes, step 7). */
export interface LogonInfo {
  itemsHash: number;
  cdnHost: string;
  cdnPath: string;
  blockedApps: string;
  /** `proto=225|choosemusic=...`, split into its `key=value` parts too. */
  settings: string;
  settingsFields: Map<string, string>;
  playerTributeHash: number | null;
}

export const LOGON_CALL = 'OnSuperMainStartAcceptLogonHrdxs47254722215a';

/** Reads the call's arguments (after its name): u32 hash, cdn host, cdn path, blocked apps, settings, tribute hash. */
export function parseLogon(args: readonly VariantValue[]): LogonInfo {
  const [hash, cdnHost, cdnPath, blockedApps, settings, tribute] = args;
  if (typeof hash !== 'number') throw new DecodeError(`${LOGON_CALL}: argument 1 (items.dat hash) is not a number`);
  const text = (v: VariantValue | undefined) => (typeof v === 'string' ? v : '');
  const settingsFields = new Map<string, string>();
  for (const part of text(settings).split('|')) {
    const eq = part.indexOf('=');
    if (eq > 0) settingsFields.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return {
    itemsHash: hash >>> 0,
    cdnHost: text(cdnHost),
    cdnPath: text(cdnPath),
    blockedApps: text(blockedApps),
    settings: text(settings),
    settingsFields,
    playerTributeHash: typeof tribute === 'number' ? tribute >>> 0 : null,
  };
}
