import type { WorldListResponse } from '@canopy/contract';
import type { EngineContext } from '../context.ts';
import { EngineError } from '../errors.ts';
import { errorMessage } from '../log.ts';
import { banPlayer, playerName, unbanPlayer } from '../players/players.service.ts';
import { formatUptime, giveCommand } from './give.ts';

/** One console command. */
interface Command {
  usage: string;
  summary: string;
  run(ctx: EngineContext, args: string[], rest: string): void | Promise<void>;
}

const LIST_MAX = 20;

const commands: Record<string, Command> = {
  help: {
    usage: 'help',
    summary: 'lists the commands',
    run(ctx) {
      ctx.log.info('Commands:');
      for (const c of Object.values(commands)) ctx.log.info(`  ${c.usage.padEnd(36)} ${c.summary}`);
    },
  },
  say: {
    usage: 'say <message>',
    summary: 'sends a message to every player online',
    run(ctx, _args, rest) {
      if (!rest) return ctx.log.warn('Usage: say <message>');
      const reached = ctx.network.broadcast(rest);
      ctx.log.info(`[SERVER] ${rest} (sent to ${reached} player${reached === 1 ? '' : 's'})`);
    },
  },
  flood: {
    usage: 'flood <count> [lines/s]',
    summary: 'prints <count> numbered lines, as fast as it can or at a rate (console benchmarks)',
    async run(ctx, [count, rate]) {
      const n = Number(count);
      const perSecond = rate === undefined ? 0 : Number(rate);
      if (!Number.isInteger(n) || n < 1 || n > 10_000_000 || !(perSecond >= 0))
        return ctx.log.warn('Usage: flood <count> (1-10000000) [lines/s]');
      const start = performance.now();
      // Each line carries its wall-clock send time in ms, so a reader can measure end-to-end latency.
      for (let i = 1; i <= n; i++) {
        ctx.log.info(`flood ${i}/${n} t=${(performance.timeOrigin + performance.now()).toFixed(3)}`);
        if (i % 100 !== 0) continue;
        const ahead = perSecond ? start + (i / perSecond) * 1000 - performance.now() : 0;
        await new Promise((r) => (ahead > 1 ? setTimeout(r, ahead) : setImmediate(r))); // let requests through
      }
    },
  },
  players: {
    usage: 'players',
    summary: 'lists the players online',
    run(ctx) {
      const online = ctx.network.onlinePlayers();
      ctx.log.info(`${online.length} player(s) online of ${ctx.players.count()} registered`);
      if (online.length) ctx.log.info(`Online: ${online.join(', ')}`);
    },
  },
  worlds: {
    usage: 'worlds [search]',
    summary: `lists worlds (at most ${LIST_MAX}) with owner, players and lock`,
    run(ctx, _args, rest) {
      const { worlds, total } = JSON.parse(
        Buffer.from(ctx.worlds.list({ search: rest || undefined, limit: LIST_MAX })).toString(),
      ) as WorldListResponse;
      ctx.log.info(`${total} world(s)${rest ? ` matching "${rest}"` : ''}`);
      for (const w of worlds)
        ctx.log.info(`  ${w.name} owner=${w.owner || '-'} players=${w.players} ${w.locked ? 'locked' : 'open'}`);
      if (total > worlds.length) ctx.log.info(`  ... and ${total - worlds.length} more`);
    },
  },
  kick: {
    usage: 'kick <player>',
    summary: 'disconnects a player',
    run(ctx, [name]) {
      if (!name) return ctx.log.warn('Usage: kick <player>');
      if (ctx.network.kick(playerName(name), 'kicked from the console')) ctx.log.info(`Kicked ${name}`);
      else ctx.log.warn(`${name} is not online`);
    },
  },
  ban: {
    usage: 'ban <player> [reason]',
    summary: 'bans a player and disconnects them',
    run(ctx, [name], rest) {
      if (!name) return ctx.log.warn('Usage: ban <player> [reason]');
      if (!banPlayer(ctx, name, rest.slice(name.length).trim())) ctx.log.warn(`No player named ${name}`);
    },
  },
  unban: {
    usage: 'unban <player>',
    summary: 'lifts a ban',
    run(ctx, [name]) {
      if (!name) return ctx.log.warn('Usage: unban <player>');
      if (!unbanPlayer(ctx, name)) ctx.log.warn(`No player named ${name}`);
    },
  },
  give: {
    usage: 'give <player> <item|gems> [amount]',
    summary: 'adds items (by id or name) or gems to a player',
    run: giveCommand,
  },
  save: {
    usage: 'save',
    summary: 'writes everything to the database',
    run(ctx) {
      const saved = ctx.save();
      ctx.log.info(`Saved ${saved.worlds} worlds and ${saved.players} players`);
    },
  },
  reload: {
    usage: 'reload',
    summary: 're-reads the creator list and server config',
    run(ctx) {
      ctx.reload();
    },
  },
  status: {
    usage: 'status',
    summary: 'shows version, uptime, counts and memory',
    run(ctx) {
      const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
      const mem = process.memoryUsage();
      ctx.log.info(
        `Canopy engine ${ctx.version}, up ${formatUptime(Date.now() - ctx.startedAt)}, ` +
          `${ctx.network.onlinePlayers().length} online, ${ctx.worlds.count()} worlds, ${ctx.players.count()} players, ` +
          `rss ${mb(mem.rss)}, heap ${mb(mem.heapUsed)}`,
      );
    },
  },
  stop: {
    usage: 'stop',
    summary: 'saves everything and shuts the server down',
    run(ctx) {
      ctx.stop('the stop command');
    },
  },
};

/** The names of every command. */
export const commandNames = Object.keys(commands);

/**
 * Runs one console line, from stdin or the control API alike. It never throws: an unknown command
 * is a WARN line and a failing one an ERROR line.
 */
export async function runConsoleCommand(ctx: EngineContext, line: string): Promise<void> {
  const text = line.trim().replace(/^\//, '');
  if (!text) return;
  ctx.log.info(`> ${text}`);
  const [word = '', ...args] = text.split(/\s+/);
  const command = Object.hasOwn(commands, word.toLowerCase()) ? commands[word.toLowerCase()] : undefined;
  if (!command) {
    ctx.log.warn(`Unknown command "${word}". Type "help" for the list of commands.`);
    return;
  }
  try {
    await command.run(ctx, args, text.slice(word.length).trim());
  } catch (error) {
    if (error instanceof EngineError) ctx.log.warn(`${word}: ${error.message}`);
    else ctx.log.error(`${word} failed: ${errorMessage(error)}`);
  }
}
