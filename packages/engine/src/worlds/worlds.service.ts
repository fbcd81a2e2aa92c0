import type { World } from '@canopy/contract/engine';
import type { EngineContext } from '../context.ts';
import { contract } from '../contract.ts';
import { badRequest, EngineError, notFound } from '../errors.ts';
import { parseOr400 } from '../validate.ts';
import { expectedVersion, versionConflict } from '../versioned-write.ts';
import { blocksToColumns } from './tiles.ts';

/** A world name from a path or a command: upper-cased, or a 400. */
export function worldName(raw: string): string {
  return parseOr400(contract().worldNameSchema, raw, 'World name');
}

/** The world detail with its revision (`version`), or a 404; what the game has not saved yet is written first. */
export function getWorld(ctx: EngineContext, raw: string): World {
  const name = worldName(raw);
  ctx.network.flushWorld(name);
  const world = ctx.worlds.get(name);
  if (!world) throw notFound(`World ${name} not found.`);
  return world;
}

/**
 * Replaces (or creates) a whole world from a PUT body; the name comes from the path. The write is conditional
 * (ADR 0035): on the version read (`ifMatch`, from the api's If-Match, or the body's version), or, with none,
 * on there being no such world yet. The game's unsaved changes to the world are written first, so one made
 * after the read is a conflict (409) rather than silently undone; the check and the write are one transaction,
 * which also refuses (400) a save of an existing world with another width or height than it has.
 */
export function putWorld(
  ctx: EngineContext,
  raw: string,
  body: unknown,
  ifMatch?: string,
): { name: string; created: boolean; version: number } {
  const name = worldName(raw);
  const { blocks, name: bodyName, id: _id, version, ...meta } = parseOr400(contract().worldPutSchema, body);
  if (bodyName !== undefined && bodyName.trim().toUpperCase() !== name)
    throw badRequest(
      `name in the body (${bodyName}) does not match the world in the path (${name}); worlds cannot be renamed.`,
    );
  const expected = expectedVersion(ifMatch, version);
  ctx.network.flushWorld(name);
  // Admin names are compared case-insensitively; owner and admins keep the case they were given.
  const saved = ctx.worlds.saveIf(name, meta, blocksToColumns(blocks), expected ?? 'absent');
  if (!saved.written && saved.size)
    throw new EngineError(
      400,
      contract().worldShapeMessages.sizeFixed(name, saved.size.width, saved.size.height),
      'world_size_fixed',
    );
  if (!saved.written) throw versionConflict('world', expected, saved.current);
  ctx.network.worldChanged(name);
  return { name, created: saved.created, version: saved.version };
}

/** Deletes a world, or a 404. */
export function deleteWorld(ctx: EngineContext, raw: string): string {
  const name = worldName(raw);
  if (!ctx.worlds.delete(name)) throw notFound(`World ${name} not found.`);
  ctx.network.worldChanged(name);
  ctx.log.info(`Deleted world ${name}`);
  return name;
}
