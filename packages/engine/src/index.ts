// Package entry for the api's supervisor: where the engine program is, its version, and how to run it.
// Importing this starts nothing; the program is src/main.ts, run as its own process.
import { fileURLToPath } from 'node:url';

export { ENGINE_NODE_ENV, ENGINE_NODE_FLAGS } from './node-flags.ts';
export { ENGINE_VERSION } from './version.ts';

/** Absolute path of the engine program, to pass to `node`. */
export const engineMainPath: string = fileURLToPath(new URL('./main.ts', import.meta.url));
