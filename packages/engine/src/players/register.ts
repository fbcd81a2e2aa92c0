import type { NewbieKit, Player } from '@canopy/contract/engine';
import {
  MAX_INVENTORY_ITEMS,
  MAX_STACK,
  PLAYER_GEMS_MAX,
  playerRoles,
  playerTitles,
} from '@canopy/contract/engine-constants';
import type { EngineContext } from '../context.ts';
import { badRequest, conflict } from '../errors.ts';
import { STARTER_ITEMS } from '../items/item-ids.ts';
import { hashPassword } from './password.ts';
import type { PlayerData } from './players.repo.ts';
import { playerName } from './players.service.ts';

/** Longest password a player may choose (the player record's own limit). */
const PASSWORD_MAX = 128;

/**
 * What a brand-new player holds: level 1, the fist and wrench, and the newbie kit's first entry. Gems are capped at what a
 * player can hold and each stack at MAX_STACK, as `give` does. The kit's Coin and Seasonals_Token have
 * no counterpart in the player record yet, so they give nothing until the game layer adds those currencies.
 */
export function newPlayerData(kit: NewbieKit): PlayerData {
  const entry = kit.ITEMS[0];
  // Every player holds the fist and the wrench, as in the game: the client's first two slots.
  const stacks = new Map<number, number>(STARTER_ITEMS.map((id) => [id, 1]));
  for (const [id, qty] of entry?.items ?? []) {
    if (!stacks.has(id) && stacks.size >= MAX_INVENTORY_ITEMS) continue;
    stacks.set(id, Math.min(MAX_STACK, (stacks.get(id) ?? 0) + qty));
  }
  return {
    email: '',
    home_world: '',
    level: 1,
    gems: Math.min(PLAYER_GEMS_MAX, entry?.Gemss ?? 0),
    xp: 0,
    wl_bank_amount: 0,
    dl_bank_amount: 0,
    flags: Object.fromEntries([
      ...playerRoles.map((r) => [`Role.${r}`, false]),
      ...playerTitles.map((t) => [`Title.${t}`, false]),
    ]),
    inventory: [...stacks].filter(([, count]) => count > 0),
  };
}

/**
 * Creates a player with the newbie kit in force, in one transaction: the player exists with the whole
 * kit or not at all. The console's `register` and the game login call this; 409 when the name is taken
 * (any case), 400 for a bad name or password.
 */
export async function registerPlayer(ctx: EngineContext, rawName: string, password: string): Promise<Player> {
  const name = playerName(rawName);
  if (!password) throw badRequest('A password is required.');
  if (password.length > PASSWORD_MAX) throw badRequest(`A password is at most ${PASSWORD_MAX} characters.`);
  if (ctx.players.exists(name)) throw conflict(`A player named ${name} already exists.`);
  const passHash = await hashPassword(password);
  // The kit in force now (it can only change at a restart); the insert refuses a name taken meanwhile.
  const created = ctx.players.create(name, newPlayerData(ctx.config.newbieKit), passHash);
  if (!created) throw conflict(`A player named ${name} already exists.`);
  return ctx.players.get(name) as Player;
}
