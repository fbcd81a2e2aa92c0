// How an engine's Node runs. Whoever spawns engines (the api's local runtime, the benchmarks) passes these
// flags, and warms the compile cache with the same ones: V8 keys its code cache by its flags, so a cache
// written under other flags is never read.

/**
 * V8 flags for an engine process. A 1 MB young generation (instead of up to 16 MB) roughly halves an idle
 * engine's private memory; the player list and world PUTs measured no slower (bench/engine.ts).
 */
export const ENGINE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/**
 * Environment for an engine process besides its own settings (glibc's malloc tunables). One malloc arena
 * instead of one per thread: an idle engine's SQLite and Node allocations fit in one, about 2 MB less per
 * engine. Blocks of 32 KB and more mapped on their own and the heap's free top given back at once: what the
 * start and the item catalog allocate and drop goes back to the system instead of staying resident in every
 * idle engine (about 0.5 MB less PSS each, bench/engine.ts).
 */
export const ENGINE_NODE_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '32768',
  MALLOC_TRIM_THRESHOLD_: '0',
};
