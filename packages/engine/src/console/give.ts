import { MAX_STACK } from '@canopy/contract';
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
 * trailing number is the amount only when something comes before it).
 */
export async function giveCommand(ctx: EngineContext, args: string[]): Promise<void> {
  const [rawName, ...itemWords] = args;
  if (!rawName || itemWords.length === 0) return ctx.log.warn('Usage: give <player> <item|gems> [amount]');
  const name = playerName(rawName);
  let amount = 1;
  const last = itemWords.at(-1) ?? '';
  if (itemWords.length > 1 && /^\d+$/.test(last)) {
    amount = Number(last);
    itemWords.pop();
  }
  if (!Number.isSafeInteger(amount) || amount < 1) return ctx.log.warn('The amount must be a positive integer');
  const what = itemWords.join(' ');

  if (what.toLowerCase() === 'gems') {
    const gems = ctx.players.giveGems(name, amount);
    if (gems === undefined) return ctx.log.warn(`No player named ${name}`);
    return ctx.log.info(`Gave ${amount} gems to ${name} (now ${gems})`);
  }

  const found = (await ctx.items).find(what);
  if (!found) return ctx.log.warn(`No item named "${what}"`);
  if (Array.isArray(found))
    return ctx.log.warn(`"${what}" names several items (${found.map((i) => i.id).join(', ')}); give the id`);
  if (found.id > 65535) return ctx.log.warn(`Item ids go up to 65535`);
  const result = ctx.players.giveItem(name, found.id, amount);
  if (!result) return ctx.log.warn(`No player named ${name}`);
  const capped = result.given < amount ? `; ${amount - result.given} did not fit (at most ${MAX_STACK})` : '';
  ctx.log.info(`Gave ${result.given} ${found.name} (id ${found.id}) to ${name} (now ${result.count})${capped}`);
}
