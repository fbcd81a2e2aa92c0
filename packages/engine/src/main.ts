// The engine program: node packages/engine/src/main.ts --data-dir DIR --game-port N --control-port N
// (packages/engine/README.md has the whole interface).
import { enableCompileCache } from 'node:module';

// Everything the engine writes (database, state file, config files) is for this user only.
process.umask(0o077);

// Node strips the TypeScript of every module on every start unless its compile cache is on; with it
// (a directory under the OS temp dir, or NODE_COMPILE_CACHE), a restart is about twice as fast. It
// must be on before the program's modules load, hence the dynamic import.
enableCompileCache();
await import('./program.ts');
