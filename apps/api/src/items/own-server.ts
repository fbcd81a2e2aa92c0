import { messages } from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';

/** The data directory of the server the caller owns, whose custom items and textures they see; null without one. */
export async function ownServerDir(ctx: AppContext, caller: Caller): Promise<string | null> {
  const server = await serversRepo.findByOwner(ctx.db, caller.user.id);
  return server ? ctx.servers.runtime.dataDir(server.id) : null;
}

/** The item pages are for registered users (spec route table); refuses the others with 403. */
export function registered(caller: Caller): void {
  if (!caller.user.grow_id) throw forbidden(messages.notRegistered, 'not_registered');
}
