import { messages } from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import { collaboratorsRepo } from '../collaborators/collaborators.repo.ts';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { type ServerRow, serversRepo } from '../servers/servers.repo.ts';
import { isBanActive } from '../users/profile.ts';

/**
 * The caller's server, whose custom items and textures they see: the one they own, else the one they collaborate
 * on (its newbie kit and custom items name them); null without one.
 */
export async function ownServer(ctx: AppContext, caller: Caller): Promise<ServerRow | null> {
  return (
    (await serversRepo.findByOwner(ctx.db, caller.user.id)) ??
    (await collaboratorsRepo.serverOf(ctx.db, caller.user.id)) ??
    null
  );
}

/** The item pages are for registered users (spec route table); refuses the others with 403. */
export function registered(caller: Caller): void {
  if (!caller.user.grow_id) throw forbidden(messages.notRegistered, 'not_registered');
}

/**
 * The Item Database page and its textures: registered, and not banned (a banned user may open only the
 * dashboard, profile, feedback and setup guide; the last one reads GET /ip, which stays open to them).
 */
export function mayOpenItemPages(ctx: AppContext, caller: Caller): void {
  registered(caller);
  if (isBanActive(caller.user, ctx.now())) throw forbidden(messages.bannedPage, 'banned');
}
