import { defaultWorldMeta } from '@canopy/contract';
import type { Json } from './engine-process.ts';

/** A whole world body for PUT /worlds/:name, small unless a size is given. */
export function buildWorld(overrides: Record<string, unknown> = {}, width = 4, height = 3): Json {
  const blocks = Array.from({ length: width * height }, (_, i) => ({
    fg: i >= width * (height - 1) ? 8 : 0,
    bg: 14,
    o: 0,
    l: 0,
    fl: 0,
    if_c: 0,
  }));
  return {
    ...defaultWorldMeta(width, height),
    blocks,
    ...overrides,
  };
}

/** A whole player body for PUT /players/:name. */
export function buildPlayer(overrides: Record<string, unknown> = {}): Json {
  return {
    pass: 'hunter22',
    email: 'grower@example.com',
    home_world: 'start',
    level: 5,
    gems: 1200,
    xp: 340,
    wl_bank_amount: 2,
    dl_bank_amount: 0,
    'Role.Moderator': false,
    'Role.VIP': true,
    'Title.Legend': false,
    inventory: [
      [18, 1],
      [32, 1],
      [2, 50],
    ],
    ...overrides,
  };
}

/** A world body with a main door at `door` (bedrock under it), where players spawn. */
export function buildWorldWithDoor(width: number, height: number, door: { x: number; y: number }): Json {
  const world = buildWorld({}, width, height);
  world.blocks[door.y * width + door.x].fg = 6;
  world.blocks[(door.y + 1) * width + door.x].fg = 8;
  return world;
}
