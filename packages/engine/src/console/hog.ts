import { CONSOLE_HOG_MAX_MB } from '@canopy/contract/engine-constants';
import type { EngineContext } from '../context.ts';

const MB = 1024 * 1024;

/** What `hog` allocated: kept until the engine exits, so that its memory stays in use. */
const held: unknown[] = [];

/**
 * `hog <MB> [native|heap]`, a benchmark-only command (an engine started with --bench-commands): keeps MB more
 * memory in use, in buffers outside the JavaScript heap (written, so resident) or as arrays on it. The tests of
 * the api's memory ceiling use it to push a real engine past its limits.
 */
export function hogCommand(ctx: EngineContext, [count = '', where = 'native']: string[]) {
  const mb = Number(count);
  if (!Number.isInteger(mb) || mb < 1 || mb > CONSOLE_HOG_MAX_MB || (where !== 'native' && where !== 'heap'))
    return ctx.log.warn(`Usage: hog <MB> (1-${CONSOLE_HOG_MAX_MB}) [native|heap]`);
  for (let i = 0; i < mb; i++)
    held.push(where === 'heap' ? new Array(MB / 8).fill(i + 0.5) : Buffer.allocUnsafe(MB).fill(i % 256));
  ctx.log.info(`hog: ${mb} MB more in use ${where === 'heap' ? 'on the JavaScript heap' : 'outside the heap'}`);
}
