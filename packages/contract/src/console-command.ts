import { CONSOLE_FLOOD_MAX, CONSOLE_HOG_MAX_MB, CONSOLE_LIST_MAX } from './engine-constants.ts';
import type { CollaboratorPermission } from './permissions.ts';
import { CONSOLE_COMMAND_MAX } from './socket.ts';

// Defined in the zod-free module an idle engine loads (engine-constants.ts); exported here as before.
export { CONSOLE_FLOOD_MAX, CONSOLE_HOG_MAX_MB, CONSOLE_LIST_MAX, PLAYER_GEMS_MAX } from './engine-constants.ts';

/**
 * The one console grammar. The api reads a command with it to decide which permission it needs and
 * the engine reads the same text with it to decide what to run, so the two cannot disagree: a line is
 * tokenised the same way (NFKC, invisible characters removed, whitespace collapsed, optional leading
 * `/`, case-insensitive command word) and looked up in one table.
 */

/**
 * What a command may do, which decides who may send it: `power` ends the engine process (it needs
 * server:actions and goes through the supervisor), `bench` exists only in an engine started for a
 * benchmark, `console` is everything else (console:use).
 */
export type ConsoleCommandClass = 'console' | 'power' | 'bench';

/** One row of the command table. */
export interface ConsoleCommandSpec {
  readonly usage: string;
  readonly summary: string;
  readonly class: ConsoleCommandClass;
  /** Fewest and most words after the command word. */
  readonly args: readonly [min: number, max: number];
  /** Positions (0-based, after the command word) of arguments never echoed or logged: passwords. */
  readonly secretArgs?: readonly number[];
}

const ANY = Number.POSITIVE_INFINITY;

/** Every console command, in the order `help` lists them. */
export const consoleCommands = {
  help: { usage: 'help', summary: 'lists the commands', class: 'console', args: [0, 0] },
  say: { usage: 'say <message>', summary: 'sends a message to every player online', class: 'console', args: [1, ANY] },
  players: {
    usage: 'players',
    summary: `lists the players online (at most ${CONSOLE_LIST_MAX})`,
    class: 'console',
    args: [0, 0],
  },
  worlds: {
    usage: 'worlds [search]',
    summary: `lists worlds (at most ${CONSOLE_LIST_MAX}) with owner, players and lock`,
    class: 'console',
    args: [0, ANY],
  },
  kick: { usage: 'kick <player>', summary: 'disconnects a player', class: 'console', args: [1, 1] },
  ban: {
    usage: 'ban <player> [reason]',
    summary: 'bans a player and disconnects them',
    class: 'console',
    args: [1, ANY],
  },
  unban: { usage: 'unban <player>', summary: 'lifts a ban', class: 'console', args: [1, 1] },
  give: {
    usage: 'give <player> <item|gems> [amount]',
    summary: 'adds items (by id or name) or gems to a player',
    class: 'console',
    args: [2, ANY],
  },
  register: {
    usage: 'register <growid> <password>',
    summary: 'creates a player who receives the newbie kit',
    class: 'console',
    args: [2, 2],
    secretArgs: [1],
  },
  save: { usage: 'save', summary: 'writes everything to the database', class: 'console', args: [0, 0] },
  reload: { usage: 'reload', summary: 're-reads the creator list and server config', class: 'console', args: [0, 0] },
  status: { usage: 'status', summary: 'shows version, uptime, counts and memory', class: 'console', args: [0, 0] },
  stop: { usage: 'stop', summary: 'saves everything and shuts the server down', class: 'power', args: [0, 0] },
  flood: {
    usage: 'flood <count> [lines/s]',
    summary: `prints <count> (at most ${CONSOLE_FLOOD_MAX}) numbered lines, at a rate or as fast as it can`,
    class: 'bench',
    args: [1, 2],
  },
  hog: {
    usage: 'hog <MB> [native|heap]',
    summary: `keeps <MB> (at most ${CONSOLE_HOG_MAX_MB}) more MB of memory in use, off or on the JavaScript heap`,
    class: 'bench',
    args: [1, 2],
  },
} as const satisfies Record<string, ConsoleCommandSpec>;

export type ConsoleCommandName = keyof typeof consoleCommands;

/** Other words for a command; each one that ends the process is a power command like `stop`. */
export const consoleCommandAliases: Readonly<Record<string, ConsoleCommandName>> = {
  shutdown: 'stop',
  exit: 'stop',
  quit: 'stop',
};

/** A command read by the grammar. */
export interface ConsoleCommand {
  /** The command's name in the table (an alias is replaced by it). */
  name: ConsoleCommandName;
  class: ConsoleCommandClass;
  /** The words after the command word. */
  args: string[];
  /** The words after the command word as one string (single spaces). */
  rest: string;
  /** The canonical text: what the api forwards to the engine; parsing it gives this command again. */
  line: string;
  /** The canonical text with secret arguments (passwords) masked: what is echoed and logged. */
  shown: string;
}

/** A refusal says why; `text` is the line as read (collapsed, normalised) when it was readable at all. */
export type ConsoleParseResult = { ok: true; command: ConsoleCommand } | { ok: false; message: string; text?: string };

/** Texts of the console grammar. */
export const consoleCommandMessages = {
  empty: 'Command cannot be empty.',
  tooLong: `A command can be at most ${CONSOLE_COMMAND_MAX} characters long.`,
  controlCharacters: 'A command must be a single line of text without control characters.',
  unknown: (word: string) => `Unknown command "${word}". Type "help" for the list of commands.`,
  usage: (usage: string) => `Usage: ${usage}`,
} as const;

/** What a secret argument reads as in echoes and logs. */
export const SECRET_MASK = '********';

/** Longest input looked at before normalising (NFKC can lengthen text, so the limit is checked again after). */
const RAW_MAX = CONSOLE_COMMAND_MAX * 4;
// Tab is whitespace; every other C0/C1 control (NUL, CR, LF, ESC, DEL...) and a lone surrogate is refused.
const CONTROL = /(?!\t)[\p{Cc}\p{Cs}]/u;
// Zero-width joiners and spaces, bidi overrides, soft hyphens, variation selectors, fillers: invisible,
// so dropped; `st\u200Dop` is `stop`.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
// Tab, NBSP, ideographic space, line/paragraph separators...
const SPACE = /[\s\p{Zs}\u2028\u2029]+/u;

/** Which collaborator permission a class of command needs. */
export function consoleCommandPermission(cls: ConsoleCommandClass): CollaboratorPermission {
  return cls === 'power' ? 'server:actions' : 'console:use';
}

/** The table rows a console offers: bench commands only in an engine started for a benchmark. */
export function availableConsoleCommands(opts: { bench?: boolean } = {}): [ConsoleCommandName, ConsoleCommandSpec][] {
  return (Object.entries(consoleCommands) as [ConsoleCommandName, ConsoleCommandSpec][]).filter(
    ([, spec]) => spec.class !== 'bench' || opts.bench === true,
  );
}

/**
 * Reads one console line. Refuses control characters, over-long lines, unknown commands (bench
 * commands are unknown unless `bench`) and a wrong number of arguments, each with a message for the user.
 */
export function parseConsoleCommand(input: string, opts: { bench?: boolean } = {}): ConsoleParseResult {
  if (input.length > RAW_MAX) return { ok: false, message: consoleCommandMessages.tooLong };
  if (CONTROL.test(input)) return { ok: false, message: consoleCommandMessages.controlCharacters };
  // Invisible characters go before NFKC (which keeps them) and after it (which can make a filler).
  const text = input.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '');
  const words = text.trim().replace(/^\//, '').split(SPACE).filter(Boolean);
  const [word = '', ...args] = words;
  if (!word) return { ok: false, message: consoleCommandMessages.empty };
  const read = words.join(' ');
  if (read.length > CONSOLE_COMMAND_MAX) return { ok: false, message: consoleCommandMessages.tooLong };
  const key = word.toLowerCase();
  const name = Object.hasOwn(consoleCommands, key)
    ? (key as ConsoleCommandName)
    : Object.hasOwn(consoleCommandAliases, key)
      ? consoleCommandAliases[key]
      : undefined;
  const spec: ConsoleCommandSpec | undefined = name && consoleCommands[name];
  if (!name || !spec || (spec.class === 'bench' && opts.bench !== true)) {
    const shown = word.length > 32 ? `${word.slice(0, 32)}…` : word;
    return { ok: false, message: consoleCommandMessages.unknown(shown), text: read };
  }
  const rest = args.join(' ');
  // No longer than `read` (an alias is at least as long as its command), so within the limit too.
  const line = rest ? `${name} ${rest}` : name;
  if (args.length < spec.args[0] || args.length > spec.args[1])
    // A line that may hold a password is echoed by its command word only.
    return { ok: false, message: consoleCommandMessages.usage(spec.usage), text: spec.secretArgs ? name : read };
  const secret = new Set(spec.secretArgs ?? []);
  const shown = secret.size ? [name, ...args.map((a, i) => (secret.has(i) ? SECRET_MASK : a))].join(' ') : line;
  return { ok: true, command: { name, class: spec.class, args, rest, line, shown } };
}
