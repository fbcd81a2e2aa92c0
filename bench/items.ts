// Item search over 20,000 items: an operator item database is generated and installed into a fresh data
// directory, the api is started on it, and GET /items is timed for a mix of searches (name, filters, pages).
// Prints latency p50/p99/max at the api (HTTP, signed in), of GET /ip (the same path doing no work) and of the
// search alone. Goal: p99 < 2 ms.
// Run: node bench/items.ts   (env: ITEMS=20000 REQUESTS=2000)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { itemsQuerySchema } from '@canopy/contract';
import { ACTION_TYPE, createItem, encodeItemsDat } from '@canopy/formats';
import { installItemDatabase } from '../apps/api/src/items/install.ts';
import { searchCatalog } from '../apps/api/src/items/item-catalog.ts';
import { ItemDatabase } from '../apps/api/src/items/item-database.ts';
import { benchUser, percentile, startBenchApi } from './lib/api-process.ts';

const ITEMS = Number(process.env.ITEMS ?? 20_000);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WORDS = ['Magic', 'Golden', 'Dark', 'Crystal', 'Wooden', 'Lava', 'Ice', 'Rainbow', 'Ancient', 'Tiny'];
const THINGS = ['Block', 'Hat', 'Wings', 'Door', 'Seed', 'Sword', 'Lock', 'Shirt', 'Background', 'Potion'];
const ACTIONS = [17, 18, 19, 20, 20, 3, 8, 0, 1, 17];

/** 20,000 items with varied names, rarities, kinds and clothing types, and one texture sheet. */
function generate(dir: string) {
  const items = Array.from({ length: ITEMS }, (_, id) =>
    createItem(id, {
      name: `${WORDS[id % 10]} ${THINGS[Math.floor(id / 10) % 10]} ${id}`,
      rarity: (id % 20) + 1,
      actionType: ACTIONS[Math.floor(id / 7) % 10] ?? ACTION_TYPE.foreground,
      clothingType: id % 9,
      collisionType: id % 2,
      texture: 'tiles_page1.rttex',
      textureX: id % 8,
      textureY: Math.floor(id / 8) % 8,
    }),
  );
  writeFileSync(join(dir, 'items.dat'), encodeItemsDat({ version: 26, items }));
  mkdirSync(join(dir, 'cache'));
}

const queries = [
  '',
  '?name=golden',
  '?name=golden%20hat',
  '?name=12345',
  '?rarity=7',
  '?itemKind=7&clothingType=6',
  '?name=crystal&rarity=3&page=2',
  '?itemKind=3&page=40',
  '?name=zzz-no-match',
  '?name=o&page=100',
];

const source = mkdtempSync(join(tmpdir(), 'canopy-bench-items-'));
const itemsDir = join(source, 'item-database');
generate(source);
const report = await installItemDatabase(itemsDir, join(source, 'items.dat'), join(source, 'cache'));
console.log(`generated and installed ${report.items} items`);

// The search alone, in this process, over the same catalog the api builds.
const catalog = await new ItemDatabase(itemsDir).catalogFor(null);
const inProcess: number[] = [];
for (let i = 0; i < REQUESTS * 5; i++) {
  const q = itemsQuerySchema.parse(Object.fromEntries(new URLSearchParams(queries[i % queries.length])));
  const t = performance.now();
  searchCatalog(catalog, q);
  inProcess.push(performance.now() - t);
}

const api = await startBenchApi({ CANOPY_ITEMS_DIR: itemsDir });
try {
  const user = await benchUser(api.base, 'itembench');
  // The api's own time for each answer (its Server-Timing header), apart from the client's.
  const inApi: number[] = [];
  const get = async (path: string) => {
    const res = await fetch(`${api.base}/items${path}`, { headers: { authorization: `Bearer ${user.token}` } });
    if (res.status !== 200) throw new Error(`GET /items${path}: ${res.status} ${await res.text()}`);
    inApi.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN));
    return res.json();
  };
  const first = await get('');
  if (first.total !== ITEMS) throw new Error(`the api serves ${first.total} items, expected ${ITEMS}`);
  for (let i = 0; i < 200; i++) await get(queries[i % queries.length] ?? ''); // warm up
  const atApi: number[] = [];
  inApi.length = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await get(queries[i % queries.length] ?? '');
    atApi.push(performance.now() - t);
  }
  // The floor: a signed-in call that does no work (same authentication, same HTTP path).
  const floor: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await (await fetch(`${api.base}/ip`, { headers: { authorization: `Bearer ${user.token}` } })).json();
    floor.push(performance.now() - t);
  }
  const line = (label: string, xs: number[]) =>
    console.log(
      `${label}: p50 ${percentile(xs, 50).toFixed(3)} ms  p99 ${percentile(xs, 99).toFixed(3)} ms  max ${Math.max(...xs).toFixed(3)} ms`,
    );
  line(`GET /items at the api (${REQUESTS} requests, HTTP round trip)`, atApi);
  line('GET /items inside the api (Server-Timing: arrival to answer)', inApi);
  line('GET /ip at the api (the floor: authentication and HTTP only)', floor);
  line(`search alone (${inProcess.length} searches)`, inProcess);
  const p99 = percentile(inApi, 99);
  console.log(`goal: p99 < 2 ms at the api — ${p99 < 2 ? 'met' : 'NOT met'} (${p99.toFixed(3)} ms inside the api)`);
} finally {
  await api.stop();
  rmSync(source, { recursive: true, force: true });
}
