import { createRequire } from 'node:module';

type EngineContract = typeof import('@canopy/contract/engine');
let loaded: EngineContract | undefined;

/**
 * The contract's schemas and what is built on them, loaded on first use. zod and the schemas cost every engine
 * about 9 MB it does not need while idle, so an engine starts with the zod-free `@canopy/contract/engine-constants`
 * and loads these on its first validation (docs/decisions/0024-lean-engine.md). Through require, which loads an
 * ES module graph synchronously, so validation stays synchronous; `--warm-compile-cache` imports the same module.
 */
export function contract(): EngineContract {
  loaded ??= createRequire(import.meta.url)('@canopy/contract/engine') as EngineContract;
  return loaded;
}
