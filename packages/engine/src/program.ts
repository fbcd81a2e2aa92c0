// The engine program proper; main.ts loads it once the compile cache is on.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineExitCodes } from '@canopy/contract/engine-constants';
import { parseArgs, UsageError, usage } from './cli/args.ts';
import { attachStdin } from './console/stdin.ts';
import type { EngineContext } from './context.ts';
import { contract } from './contract.ts';
import { startEngine } from './engine.ts';
import { beforeExit } from './exit-hooks.ts';
import type { FilesContext } from './files/context.ts';
import { startFilesOnlyEngine, stopOnStdin } from './files/files-only-engine.ts';
import { StartupError } from './lifecycle.ts';
import { errorMessage, Logger } from './log.ts';

const log = new Logger();
let engine: EngineContext | FilesContext | undefined;
const abort = new AbortController();

const stopOn = (signal: NodeJS.Signals) => () => {
  if (engine) engine.stop(signal);
  else abort.abort();
};
process.on('SIGTERM', stopOn('SIGTERM'));
process.on('SIGINT', stopOn('SIGINT'));
// A daemon convention: SIGHUP re-reads the config instead of ending the process.
process.on('SIGHUP', () => {
  if (engine && 'reload' in engine) engine.reload();
});
process.on('uncaughtException', (error) => {
  log.fatal(`Uncaught error: ${error.stack ?? errorMessage(error)}`);
  if (engine) engine.stop('an uncaught error', engineExitCodes.failure);
  else process.exit(engineExitCodes.failure);
});
process.on('unhandledRejection', (reason) => log.error(`Unhandled rejection: ${errorMessage(reason)}`));

let options: ReturnType<typeof parseArgs>;
try {
  options = parseArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  log.fatal(error.message);
  process.exit(engineExitCodes.usage);
}
if (options === 'help') {
  process.stdout.write(`${usage}\n`);
  process.exit(engineExitCodes.ok);
}
if (options === 'warm') {
  // Whoever spawns engines runs this once with their NODE_COMPILE_CACHE and flags, so that no engine ever
  // strips TypeScript itself: an engine that loaded Node's stripper keeps about 20 MB more for its whole life.
  // The modules the engine imports later (dynamically) are loaded here too; the static ones already are:
  // items.dat's formats after READY, and the contract's schemas (with zod) on the first validation, loaded the
  // same way here (contract.ts): the cache knows a module by the name it was loaded with.
  await import('@canopy/formats');
  contract();
  // The file API's snapshot and restore, loaded on their first request, and the database check's worker module.
  await import('./files/snapshot.ts');
  await import('./files/restore.ts');
  await import('./files/verify-worker.ts');
  // Only an engine under Agones loads this (and the SDK); warming it costs a process that exits anyway.
  await import('./agones.ts');
  process.exit(engineExitCodes.ok);
}
log.debugEnabled = options.debug;
// Longest first, so that a data directory inside the install is shown as the data directory.
log.hidePath(resolve(options.dataDir), '<data-dir>');
log.hidePath(fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, ''), '<canopy>');

// stdin: the console of a game engine; only `stop` for a files-only one.
let attach: () => void;
try {
  if (options.filesOnly) {
    const files = await startFilesOnlyEngine(options, log);
    engine = files;
    attach = () => stopOnStdin(files);
  } else {
    const game = await startEngine(options, log, abort.signal);
    engine = game;
    attach = () => attachStdin(game);
  }
} catch (error) {
  if (error instanceof StartupError && error.exitCode === engineExitCodes.ok) log.info(error.message);
  else log.fatal(error instanceof StartupError ? error.message : `Start failed: ${errorMessage(error)}`);
  process.exit(error instanceof StartupError ? error.exitCode : engineExitCodes.failure);
}
// Under Agones (its sidecar sets AGONES_SDK_GRPC_PORT) the engine reports to the SDK server; an engine not under
// Agones loads none of it. A files-only engine serves no players, so it never says Ready.
if (process.env.AGONES_SDK_GRPC_PORT) {
  const agones = (await import('./agones.ts')).linkAgones(log);
  beforeExit(() => agones.shutdown());
  if (!options.filesOnly) agones.ready();
}
if (abort.signal.aborted) engine.stop('a signal received while starting');
else attach();
