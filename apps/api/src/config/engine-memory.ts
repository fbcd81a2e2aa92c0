import { z } from 'zod';

// Each engine's memory ceiling by its owner's plan (CANOPY_ENGINE_MEMORY_*_MB, ADR 0029): what config.ts reads for it
// and the check across those variables.

/** Below this an engine does not start (an idle one keeps about 20 MB of its own, a busy one several times that). */
export const ENGINE_MEMORY_MIN_MB = 64;

const megabytes = (fallback: number) => z.coerce.number().int().min(ENGINE_MEMORY_MIN_MB).max(65_536).default(fallback);

/** The variables, merged into config.ts's environment schema. */
export const engineMemoryEnv = {
  CANOPY_ENGINE_MEMORY_FREE_MB: megabytes(256),
  CANOPY_ENGINE_MEMORY_PAID_MB: megabytes(512),
};

type EngineMemoryEnv = { [K in keyof typeof engineMemoryEnv]: number };

/** What is wrong across the variables: a Paid plan never gets less than a Free one. */
export function engineMemoryIssues(env: EngineMemoryEnv): { path: string[]; message: string }[] {
  if (env.CANOPY_ENGINE_MEMORY_PAID_MB >= env.CANOPY_ENGINE_MEMORY_FREE_MB) return [];
  return [
    {
      path: ['CANOPY_ENGINE_MEMORY_PAID_MB'],
      message: `must be at least CANOPY_ENGINE_MEMORY_FREE_MB (${env.CANOPY_ENGINE_MEMORY_FREE_MB})`,
    },
  ];
}

/** An engine's memory ceiling in MB, by its owner's plan. */
export interface EngineMemoryConfig {
  freeMB: number;
  paidMB: number;
}

export const engineMemory = (env: EngineMemoryEnv): EngineMemoryConfig => ({
  freeMB: env.CANOPY_ENGINE_MEMORY_FREE_MB,
  paidMB: env.CANOPY_ENGINE_MEMORY_PAID_MB,
});
