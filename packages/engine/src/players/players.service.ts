import type { Player } from '@canopy/contract/engine';
import { messages, playerFlagPattern } from '@canopy/contract/engine-constants';
import type { EngineContext } from '../context.ts';
import { contract } from '../contract.ts';
import { badRequest, notFound } from '../errors.ts';
import { parseOr400 } from '../validate.ts';
import { expectedVersion, versionConflict } from '../versioned-write.ts';
import { hashPassword } from './password.ts';
import type { PlayerData } from './players.repo.ts';

/** A GrowID from a path or a command, or a 400. */
export function playerName(raw: string): string {
  const name = raw.trim();
  if (!contract().growIdSchema.safeParse(name).success) throw badRequest(messages.growIdInvalid);
  return name;
}

/** The player detail (pass blank), or a 404. */
export function getPlayer(ctx: EngineContext, raw: string): Player {
  const name = playerName(raw);
  const player = ctx.players.get(name);
  if (!player) throw notFound(`Player ${name} not found.`);
  return player;
}

/**
 * Replaces a whole player from a PUT body. An empty pass keeps the password, anything else is
 * hashed and set; a player that does not exist yet is created and must be given a pass. As for a
 * world (putWorld), the write is conditional on the version read (`ifMatch` or the body's version),
 * checked in the transaction that writes: gems or items the game gave since are a 409, not undone.
 */
export async function putPlayer(
  ctx: EngineContext,
  raw: string,
  body: unknown,
  ifMatch?: string,
): Promise<{ player: Player; created: boolean }> {
  const name = playerName(raw);
  const input = parseOr400(contract().playerPutSchema, body);
  const expected = expectedVersion(ifMatch, input.version);
  if (input.name !== undefined && input.name.trim().toLowerCase() !== name.toLowerCase())
    throw badRequest(
      `name in the body (${input.name}) does not match the player in the path (${name}); players cannot be renamed.`,
    );
  if (!input.pass && !ctx.players.exists(name))
    throw badRequest(`Player ${name} does not exist; pass is required to create one.`);
  const flags: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(input)) if (playerFlagPattern.test(key)) flags[key] = value === true;
  const data: PlayerData = {
    email: input.email,
    home_world: input.home_world,
    level: input.level,
    gems: input.gems,
    xp: input.xp,
    wl_bank_amount: input.wl_bank_amount,
    dl_bank_amount: input.dl_bank_amount,
    flags,
    inventory: input.inventory,
  };
  const passHash = input.pass ? await hashPassword(input.pass) : undefined;
  // After the hash's wait: the comparison and the write are one transaction (players.repo.ts, saveIf).
  const saved = ctx.players.saveIf(name, data, passHash, input.banned, expected ?? 'absent');
  if (!saved.written) throw versionConflict('player', expected, saved.current);
  const { created } = saved;
  if (input.banned) ctx.network.kick(name, 'banned');
  else ctx.network.playerChanged(name);
  return { player: ctx.players.get(name) as Player, created };
}

/** Bans a player and disconnects them if online; false when there is no such player. */
export function banPlayer(ctx: EngineContext, raw: string, reason: string): boolean {
  const name = playerName(raw);
  if (!ctx.players.setBanned(name, true, reason)) return false;
  const kicked = ctx.network.kick(name, `banned: ${reason}`);
  ctx.log.info(`Banned ${name}${reason ? ` (${reason})` : ''}${kicked ? ' and disconnected them' : ''}`);
  return true;
}

/** Lifts a ban; false when there is no such player. */
export function unbanPlayer(ctx: EngineContext, raw: string): boolean {
  const name = playerName(raw);
  if (!ctx.players.setBanned(name, false)) return false;
  ctx.log.info(`Unbanned ${name}`);
  return true;
}
