import { MAX_STACK } from '@canopy/contract/engine-constants';
import type { Session } from './session.ts';

/** What in-game commands act on (game-server.ts wires these to the flow, the sessions and the config). */
export interface CommandParts {
  /** Whether the player is on the server's creator list (creators.json, re-read on reload). */
  isCreator(s: Session): boolean;
  consoleMessage(s: Session, text: string): void;
  /** Gives the player items (negative takes); answers how many changed hands. */
  give(s: Session, itemId: number, amount: number): number;
  itemExists(itemId: number): Promise<boolean>;
  warp(s: Session, world: string): void;
  kick(name: string, reason: string): boolean;
  broadcast(text: string): number;
  /** Turns the player's autofarm on or off (autofarm.ts); answers whether it is on now. */
  toggleAutofarm(s: Session): boolean;
  /** Writes a line to the server's console: creator commands are shown to the owner there. */
  audit(line: string): void;
}

interface Command {
  usage: string;
  /** Creator rights needed (creators.json): what a GTPS owner hands trusted staff. */
  creator: boolean;
  run(s: Session, args: string[], parts: CommandParts): unknown;
}

const integer = (text: string | undefined, min: number, max: number) => {
  if (!text || !/^-?\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
};

const COMMANDS = new Map<string, Command>([
  [
    'help',
    {
      usage: '/help',
      creator: false,
      run(s, _args, parts) {
        const mine = [...COMMANDS.values()].filter((c) => !c.creator || parts.isCreator(s)).map((c) => c.usage);
        parts.consoleMessage(s, `\`oCommands:\`\` ${mine.join(', ')}`);
      },
    },
  ],
  [
    'autofarm',
    {
      usage: '/autofarm',
      creator: false,
      run(s, _args, parts) {
        parts.consoleMessage(
          s,
          parts.toggleAutofarm(s)
            ? "`2Autofarm on.`` Punch a tile: it is farmed for you at the server's autofarm delay. /autofarm stops it."
            : '`oAutofarm off.``',
        );
      },
    },
  ],
  [
    'give',
    {
      usage: '/give <item id> [amount]',
      creator: true,
      async run(s, [id, amount], parts) {
        const itemId = integer(id, 1, 0xffff);
        const count = amount === undefined ? 1 : integer(amount, 1, MAX_STACK);
        if (itemId === undefined || count === undefined)
          return parts.consoleMessage(s, `\`4Usage:\`\` /give <item id 1-65535> [amount 1-${MAX_STACK}]`);
        if (!(await parts.itemExists(itemId)))
          return parts.consoleMessage(s, `\`4No item ${itemId} on this server.\`\``);
        const given = parts.give(s, itemId, count);
        parts.consoleMessage(s, `\`2Given ${given} of item ${itemId}.\`\``);
      },
    },
  ],
  [
    'warp',
    {
      usage: '/warp <world>',
      creator: true,
      run(s, [world], parts) {
        if (!world) return parts.consoleMessage(s, '`4Usage:`` /warp <world>');
        parts.warp(s, world);
      },
    },
  ],
  [
    'kick',
    {
      usage: '/kick <GrowID>',
      creator: true,
      run(s, [name], parts) {
        if (!name) return parts.consoleMessage(s, '`4Usage:`` /kick <GrowID>');
        if (name.toLowerCase() === s.name?.toLowerCase())
          return parts.consoleMessage(s, '`4You cannot kick yourself.``');
        const kicked = parts.kick(name, `kicked by ${s.name}`);
        parts.consoleMessage(s, kicked ? `\`2Kicked ${name}.\`\`` : `\`4${name} is not online.\`\``);
      },
    },
  ],
  [
    'sb',
    {
      usage: '/sb <message>',
      creator: true,
      run(s, args, parts) {
        const text = args.join(' ');
        if (!text) return parts.consoleMessage(s, '`4Usage:`` /sb <message>');
        parts.broadcast(`CP:0_PL:0_OID:_CT:[SB]_ \`5** from ${s.name}: ${text}\`\``);
      },
    },
  ],
]);

/**
 * Runs a chat line that starts with `/` (it is never shown to the world). Creator commands need the player on
 * the creator list; anyone else is told so, and nothing happens.
 */
export async function runCommand(s: Session, line: string, parts: CommandParts): Promise<void> {
  const [word = '', ...args] = line.slice(1).trim().split(/\s+/);
  const command = COMMANDS.get(word.toLowerCase());
  if (!command) return parts.consoleMessage(s, `\`4Unknown command.\`\` Type /help for the list.`);
  if (command.creator && !parts.isCreator(s))
    return parts.consoleMessage(s, `\`4/${word.toLowerCase()} needs creator rights on this server.\`\``);
  if (command.creator) parts.audit(`Creator ${s.name} used: /${word.toLowerCase()} ${args.join(' ')}`.trimEnd());
  await command.run(s, args, parts);
}
