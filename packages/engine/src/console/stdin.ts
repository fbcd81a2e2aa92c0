import type { EngineContext } from '../context.ts';
import { runConsoleCommand } from './commands.ts';

// Not an ES import: node:readline's namespace would read its lazy `promises` export and load readline/promises.
const { createInterface } = process.getBuiltinModule('node:readline');

/**
 * Reads console commands from stdin, one per line, in order. End of input does not stop the
 * engine: the api may have gone away and will re-attach over the control API.
 */
export function attachStdin(ctx: EngineContext, input: NodeJS.ReadableStream = process.stdin): void {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(() => runConsoleCommand(ctx, line));
  });
  lines.on('close', () => {
    if (!ctx.stopping) ctx.log.info('stdin closed; console commands are still taken over the control API');
  });
  input.on('error', () => {});
}
