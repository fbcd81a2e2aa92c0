import { MAX_STACK, PLAYER_GEMS_MAX } from '@canopy/contract/engine-constants';
import type { EngineContext } from '../context.ts';
import { playerName } from '../players/players.service.ts';

/** "2d 3h 4m 5s" style uptime. */
export function formatUptime(ms: number): string {
  let s = Math.floor(ms / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (s >= size) parts.push(`${Math.floor(s / size)}${unit}`);
    s %= size;
  }
  parts.push(`${s}s`);
  return parts.join(' ');
}

/**
 * `give <player> <item|gems> [amount]`. The item is an id or a name (names may hold spaces, so a
 * trailing number is the amount only when something comes before it). An amount above what fits is
 * capped (a stack holds MAX_STACK, a player PLAYER_GEMS_MAX gems) and the line says what was applied.
 */
export async function giveCommand(ctx: EngineContext, args: string[]): Promise<void> {
  const [rawName = '', ...itemWords] = args;
  const name = playerName(rawName);
  let requested = 1;
  const last = itemWords.at(-1) ?? '';
  if (itemWords.length > 1 && /^\d+$/.test(last)) {
    // A number too long to be exact is still "more than fits"; Number() of it is a huge value or Infinity.
    requested = Number(last);
    itemWords.pop();
  }
  if (requested < 1) return ctx.log.warn('The amount must be a positive integer');
  const what = itemWords.join(' ');

  if (what.toLowerCase() === 'gems') {
    const before = ctx.players.get(name)?.gems;
    const gems = before === undefined ? undefined : ctx.players.giveGems(name, Math.min(requested, PLAYER_GEMS_MAX));
    if (before === undefined || gems === undefined) return ctx.log.warn(`No player named ${name}`);
    const full = gems - before < requested ? `; the rest did not fit (at most ${PLAYER_GEMS_MAX} gems)` : '';
    return ctx.log.info(`Gave ${gems - before} gems to ${name} (now ${gems})${full}`);
  }

  const found = (await ctx.items).find(what);
  if (!found) return ctx.log.warn(`No item named "${what.length > 64 ? `${what.slice(0, 64)}…` : what}"`);
  if (Array.isArray(found))
    return ctx.log.warn(
      `"${what}" names several items (${found
        .slice(0, 10)
        .map((i) => i.id)
        .join(', ')}${found.length > 10 ? ', ...' : ''}); give the id`,
    );
  if (found.id > 65535) return ctx.log.warn(`Item ids go up to 65535`);
  const amount = Math.min(requested, MAX_STACK);
  const result = ctx.players.giveItem(name, found.id, amount);
  if (!result) return ctx.log.warn(`No player named ${name}`);
  ctx.network.playerChanged(name);
  const left = requested === amount ? `${amount - result.given}` : 'the rest';
  const capped = result.given < requested ? `; ${left} did not fit (at most ${MAX_STACK})` : '';
  ctx.log.info(`Gave ${result.given} ${found.name} (id ${found.id}) to ${name} (now ${result.count})${capped}`);
}
