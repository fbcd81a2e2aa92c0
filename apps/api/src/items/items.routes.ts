import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { decodeItemsDat } from '@canopy/formats';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';

// Canopy's own generated items.dat; an operator's file can replace it later.
const itemsDatPath = fileURLToPath(import.meta.resolve('@canopy/formats/assets/items.dat'));

let names: Promise<{ item_id: number; name: string }[]> | null = null;

/** Item ids and names of the item database (what /all-items serves), decoded once on first use. */
export function itemNames() {
  names ??= readFile(itemsDatPath).then((bytes) =>
    decodeItemsDat(new Uint8Array(bytes)).items.map((i) => ({ item_id: i.id, name: i.name })),
  );
  return names;
}

/** GET /all-items: the item database's ids and names (inventory and newbie-kit editors). */
export function itemsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/all-items',
    access: 'user',
    handler: async () => ({ items: await itemNames() }),
  });
}
