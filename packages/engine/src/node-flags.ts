// How an engine's Node runs. Whoever spawns engines (the api's local runtime, the benchmarks) passes these
// flags, and warms the compile cache with the same ones: V8 keys its code cache by its flags, so a cache
// written under other flags is never read.

/**
 * V8 flags for an engine process. A 1 MB young generation (instead of up to 16 MB) roughly halves an idle
 * engine's private memory; the player list and world PUTs measured no slower (bench/engine.ts).
 */
export const ENGINE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/**
 * Environment for an engine process besides its own settings. One malloc arena instead of one per thread:
 * an idle engine's SQLite and Node allocations fit in one, about 2 MB less per engine (bench/engine.ts).
 */
export const ENGINE_NODE_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };
