import type { World } from '@canopy/contract/engine';
import type { EngineContext } from '../context.ts';
import { contract } from '../contract.ts';
import { badRequest, notFound } from '../errors.ts';
import { parseOr400 } from '../validate.ts';
import { blocksToColumns } from './tiles.ts';

/** A world name from a path or a command: upper-cased, or a 400. */
export function worldName(raw: string): string {
  return parseOr400(contract().worldNameSchema, raw, 'World name');
}

/** The world detail, or a 404. */
export function getWorld(ctx: EngineContext, raw: string): World {
  const name = worldName(raw);
  const world = ctx.worlds.get(name);
  if (!world) throw notFound(`World ${name} not found.`);
  return world;
}

/** Replaces (or creates) a whole world from a PUT body; the name comes from the path. */
export function putWorld(ctx: EngineContext, raw: string, body: unknown): { name: string; created: boolean } {
  const name = worldName(raw);
  const { blocks, name: bodyName, id: _id, ...meta } = parseOr400(contract().worldPutSchema, body);
  if (bodyName !== undefined && bodyName.trim().toUpperCase() !== name)
    throw badRequest(
      `name in the body (${bodyName}) does not match the world in the path (${name}); worlds cannot be renamed.`,
    );
  // Admin names are compared case-insensitively; owner and admins keep the case they were given.
  const { created } = ctx.worlds.save(name, meta, blocksToColumns(blocks));
  ctx.network.worldChanged(name);
  return { name, created };
}

/** Deletes a world, or a 404. */
export function deleteWorld(ctx: EngineContext, raw: string): string {
  const name = worldName(raw);
  if (!ctx.worlds.delete(name)) throw notFound(`World ${name} not found.`);
  ctx.network.worldChanged(name);
  ctx.log.info(`Deleted world ${name}`);
  return name;
}
