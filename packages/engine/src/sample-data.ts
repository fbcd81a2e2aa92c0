import type { PlayerListResponse } from '@canopy/contract/engine';
import {
  defaultWorldMeta,
  MAX_STACK,
  WORLD_LOCKED,
  WORLD_OPEN,
  weatherOptions,
} from '@canopy/contract/engine-constants';
import type { Logger } from './log.ts';
import { hashPassword } from './players/password.ts';
import type { PlayerData, PlayersRepo } from './players/players.repo.ts';
import { decorateWorld, generateWorld, seededRandom } from './worlds/generate.ts';
import { encodeTiles } from './worlds/tiles.ts';
import type { WorldsRepo } from './worlds/worlds.repo.ts';

/** Every sample player's password (sample data is for demos and benchmarks only). */
export const SAMPLE_PASSWORD = 'sample';
const BATCH = 500;
// Worlds go in smaller batches: each holds ~150 KB of tile buffers until it is written.
const WORLD_BATCH = 100;

const FIRST = 'Dark Epic Tiny Mega Pro Lucky Shadow Crystal Golden Silent Rapid Frost Neon Cosmic Wild Iron'.split(' ');
const SECOND = 'Grower Farmer Builder Trader Ninja Wizard Knight Miner Pixel Dragon Fox Wolf Panda Tiger Bee'.split(
  ' ',
);
const WORLD_WORDS =
  'BUY SELL DIRT FARM PARKOUR CASINO SHOP HOUSE CASTLE TRADE GEMS LAVA CAVE SKY ISLAND CITY MARKET GARDEN JUMP PIXEL'.split(
    ' ',
  );
// Main (non-seed) items of the bundled items.dat: even ids 2..334.
const ITEM_IDS = Array.from({ length: 167 }, (_, i) => 2 + i * 2);

// Between batches, so that a SIGTERM during a long generation is seen.
const yieldToEvents = () => new Promise((resolve) => setImmediate(resolve));

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

function samplePlayer(random: () => number, i: number): { name: string; data: PlayerData } {
  const name = `${pick(random, FIRST)}${pick(random, SECOND)}${i}`.slice(0, 20);
  const flags: Record<string, boolean> = {};
  const roll = random();
  if (roll < 0.002) flags['Role.Developer'] = true;
  else if (roll < 0.005) flags['Role.Administrator'] = true;
  else if (roll < 0.015) flags['Role.Moderator'] = true;
  if (random() < 0.05) flags['Role.VIP'] = true;
  if (random() < 0.02) flags['Title.Legend'] = true;
  const inventory: [number, number][] = [];
  const slots = 3 + Math.floor(random() * 25);
  const taken = new Set<number>();
  for (let s = 0; s < slots; s++) {
    const id = pick(random, ITEM_IDS);
    if (taken.has(id)) continue;
    taken.add(id);
    inventory.push([id, 1 + Math.floor(random() * MAX_STACK)]);
  }
  return {
    name,
    data: {
      email: random() < 0.6 ? `${name.toLowerCase()}@example.com` : '',
      home_world: '',
      // Most players are low level and poor; a few are neither.
      level: 1 + Math.floor(random() ** 3 * 124),
      gems: Math.floor(random() ** 2 * 500_000),
      xp: Math.floor(random() * 100_000),
      wl_bank_amount: Math.floor(random() ** 4 * 1000),
      dl_bank_amount: Math.floor(random() ** 6 * 50),
      flags,
      inventory,
    },
  };
}

/**
 * Makes sure at least `worlds` worlds and `players` players exist, generating realistic ones
 * (deterministic per index). Only ever run when asked for with --sample-worlds/--sample-players.
 */
export async function ensureSampleData(
  repos: { worlds: WorldsRepo; players: PlayersRepo },
  counts: { worlds: number; players: number },
  log: Logger,
  abort?: AbortSignal,
): Promise<void> {
  const started = performance.now();
  const owners: string[] = [];
  let madePlayers = 0;
  const missingPlayers = counts.players - repos.players.count();
  if (missingPlayers > 0) {
    const passHash = await hashPassword(SAMPLE_PASSWORD);
    const first = repos.players.count();
    const random = seededRandom(0x5eed + first);
    for (let done = 0; done < missingPlayers && !abort?.aborted; done += BATCH) {
      await yieldToEvents();
      const batch = Array.from({ length: Math.min(BATCH, missingPlayers - done) }, (_, k) => {
        const p = samplePlayer(random, first + done + k + 1);
        owners.push(p.name);
        return { ...p, passHash };
      });
      madePlayers += repos.players.insertMany(batch);
    }
  }
  if (!owners.length) {
    const { players } = JSON.parse(Buffer.from(repos.players.list({ limit: 5000 })).toString()) as PlayerListResponse;
    owners.push(...players.map((p) => p.name));
  }
  let madeWorlds = 0;
  const missingWorlds = counts.worlds - repos.worlds.count();
  if (missingWorlds > 0) {
    const random = seededRandom(0x3041d + repos.worlds.count());
    const first = repos.worlds.count();
    for (let done = 0; done < missingWorlds && !abort?.aborted; done += WORLD_BATCH) {
      await yieldToEvents();
      const batch = Array.from({ length: Math.min(WORLD_BATCH, missingWorlds - done) }, (_, k) => {
        const i = first + done + k + 1;
        const name = `${pick(random, WORLD_WORDS)}${pick(random, WORLD_WORDS)}${i}`.slice(0, 24);
        const meta = defaultWorldMeta();
        const tiles = generateWorld(random);
        decorateWorld(tiles, meta.width, random, ITEM_IDS);
        meta.owner = owners.length && random() < 0.8 ? pick(random, owners) : '';
        meta.d_weather = meta.owner && random() < 0.7 ? WORLD_LOCKED : WORLD_OPEN;
        meta.weather = pick(random, weatherOptions).id;
        meta.music_bpm = random() < 0.2 ? 60 + Math.floor(random() * 140) : meta.music_bpm;
        meta.admins = owners.length ? Array.from({ length: Math.floor(random() * 3) }, () => pick(random, owners)) : [];
        meta.admins = [...new Set(meta.admins)].filter((a) => a !== meta.owner);
        return { name, meta, tiles: encodeTiles(tiles) };
      });
      madeWorlds += repos.worlds.insertMany(batch);
    }
  }
  if (madePlayers || madeWorlds)
    log.info(
      `Sample data: generated ${madeWorlds} worlds and ${madePlayers} players in ${Math.round(performance.now() - started)} ms`,
    );
}
