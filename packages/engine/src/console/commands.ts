import type { ConsoleCommand, ConsoleCommandName, WorldListResponse } from '@canopy/contract/engine';
import { CONSOLE_FLOOD_MAX, CONSOLE_LIST_MAX } from '@canopy/contract/engine-constants';
import type { EngineContext } from '../context.ts';
import { contract } from '../contract.ts';
import { EngineError } from '../errors.ts';
import { STARTER_ITEMS } from '../items/item-ids.ts';
import { errorMessage } from '../log.ts';
import { banPlayer, playerName, unbanPlayer } from '../players/players.service.ts';
import { registerPlayer } from '../players/register.ts';
import { formatUptime, giveCommand } from './give.ts';
import { hogCommand } from './hog.ts';

/**
 * What each command of the contract's table does. The grammar has already checked the command word
 * and the number of arguments; every handler keeps its output and its work bounded.
 */
type Handler = (ctx: EngineContext, command: ConsoleCommand) => void | Promise<void>;

/** `a, b, c` of at most CONSOLE_LIST_MAX names, then how many more. */
const boundedList = (names: string[]) =>
  names.slice(0, CONSOLE_LIST_MAX).join(', ') +
  (names.length > CONSOLE_LIST_MAX ? ` ... and ${names.length - CONSOLE_LIST_MAX} more` : '');

const handlers: Record<ConsoleCommandName, Handler> = {
  help(ctx) {
    ctx.log.info('Commands:');
    for (const [, spec] of contract().availableConsoleCommands({ bench: ctx.options.benchCommands }))
      ctx.log.info(`  ${spec.usage.padEnd(36)} ${spec.summary}`);
  },
  say(ctx, { rest }) {
    const reached = ctx.network.broadcast(rest);
    ctx.log.info(`[SERVER] ${rest} (sent to ${reached} player${reached === 1 ? '' : 's'})`);
  },
  async flood(ctx, { args: [count, rate] }) {
    const n = Number(count);
    const perSecond = rate === undefined ? 0 : Number(rate);
    if (!Number.isInteger(n) || n < 1 || n > CONSOLE_FLOOD_MAX || !Number.isFinite(perSecond) || perSecond < 0)
      return ctx.log.warn(`Usage: flood <count> (1-${CONSOLE_FLOOD_MAX}) [lines/s]`);
    const start = performance.now();
    // Each line carries its wall-clock send time in ms, so a reader can measure end-to-end latency.
    for (let i = 1; i <= n; i++) {
      ctx.log.info(`flood ${i}/${n} t=${(performance.timeOrigin + performance.now()).toFixed(3)}`);
      if (i % 100 !== 0) continue;
      const ahead = perSecond ? start + (i / perSecond) * 1000 - performance.now() : 0;
      await new Promise((r) => (ahead > 1 ? setTimeout(r, ahead) : setImmediate(r))); // let requests through
    }
  },
  hog: (ctx, { args }) => hogCommand(ctx, args),
  players(ctx) {
    const online = ctx.network.onlinePlayers();
    ctx.log.info(`${online.length} player(s) online of ${ctx.players.count()} registered`);
    if (online.length) ctx.log.info(`Online: ${boundedList(online)}`);
  },
  worlds(ctx, { rest }) {
    const { worlds, total } = JSON.parse(
      Buffer.from(ctx.worlds.list({ search: rest || undefined, limit: CONSOLE_LIST_MAX })).toString(),
    ) as WorldListResponse;
    ctx.log.info(`${total} world(s)${rest ? ` matching "${rest}"` : ''}`);
    for (const w of worlds.slice(0, CONSOLE_LIST_MAX))
      ctx.log.info(`  ${w.name} owner=${w.owner || '-'} players=${w.players} ${w.locked ? 'locked' : 'open'}`);
    if (total > worlds.length) ctx.log.info(`  ... and ${total - worlds.length} more`);
  },
  kick(ctx, { args: [name = ''] }) {
    if (ctx.network.kick(playerName(name), 'kicked from the console')) ctx.log.info(`Kicked ${name}`);
    else ctx.log.warn(`${name} is not online`);
  },
  ban(ctx, { args: [name = '', ...reason] }) {
    if (!banPlayer(ctx, name, reason.join(' '))) ctx.log.warn(`No player named ${name}`);
  },
  unban(ctx, { args: [name = ''] }) {
    if (!unbanPlayer(ctx, name)) ctx.log.warn(`No player named ${name}`);
  },
  give: (ctx, { args }) => giveCommand(ctx, args),
  async register(ctx, { args: [name = '', password = ''] }) {
    const player = await registerPlayer(ctx, name, password);
    // The kit's stacks: the fist and wrench every player holds are not the kit's.
    const items = player.inventory.filter(([id]) => !STARTER_ITEMS.includes(id)).length;
    ctx.log.info(
      `Registered ${player.name} with the newbie kit: ${player.gems} gems, ${items} item${items === 1 ? '' : 's'}`,
    );
  },
  save(ctx) {
    const saved = ctx.save();
    ctx.log.info(`Saved ${saved.worlds} worlds and ${saved.players} players`);
  },
  reload(ctx) {
    ctx.reload();
  },
  status(ctx) {
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
    const mem = process.memoryUsage();
    ctx.log.info(
      `Canopy engine ${ctx.version}, up ${formatUptime(Date.now() - ctx.startedAt)}, ` +
        `${ctx.network.onlinePlayers().length} online, ${ctx.worlds.count()} worlds, ${ctx.players.count()} players, ` +
        `rss ${mb(mem.rss)}, heap ${mb(mem.heapUsed)}` +
        (ctx.itemsDat ? `, items.dat ${ctx.itemsDat.items} items hash ${ctx.itemsDat.hash}` : ''),
    );
  },
  stop(ctx) {
    ctx.stop('the stop command');
  },
};

/**
 * Runs one console line, from stdin or the control API alike, read with the contract's grammar (the
 * same one the api used to decide who may send it). It never throws: a refused line is a WARN line
 * and a failing command an ERROR line.
 */
export async function runConsoleCommand(ctx: EngineContext, line: string): Promise<void> {
  const parsed = contract().parseConsoleCommand(line, { bench: ctx.options.benchCommands });
  if (!parsed.ok) {
    // Blank lines on stdin are not worth a warning; anything else is answered. A line with control
    // characters is not echoed at all (it could forge lines of its own).
    if (parsed.text) ctx.log.info(`> ${parsed.text}`);
    if (line.trim()) ctx.log.warn(parsed.message);
    return;
  }
  const command = parsed.command;
  ctx.log.info(`> ${command.shown}`);
  try {
    await handlers[command.name](ctx, command);
  } catch (error) {
    if (error instanceof EngineError) ctx.log.warn(`${command.name}: ${error.message}`);
    else ctx.log.error(`${command.name} failed: ${errorMessage(error)}`);
  }
}
