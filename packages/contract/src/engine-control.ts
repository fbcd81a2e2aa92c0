import { z } from 'zod';
import { creatorListSchema } from './engine-config.ts';

// Defined in the zod-free module an idle engine loads (engine-constants.ts); exported here as before.
export { ENGINE_SECRET_MIN_LENGTH, engineEnv, engineExitCodes } from './engine-constants.ts';

// The interface between the api's supervisor and an engine process (packages/engine/README.md).

export const engineLogLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;
export type EngineLogLevel = (typeof engineLogLevels)[number];

/** One stdout line: `<ISO timestamp> [<LEVEL>] <message>`; groups 1-3 are timestamp, level, message. */
export const ENGINE_LOG_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) \[(DEBUG|INFO|WARN|ERROR|FATAL)\] (.*)$/;
/** The ready line's message; groups are control host, control port, game port, version, pid. */
export const ENGINE_READY_MESSAGE = /^READY control=(\S+):(\d+) game=(\d+) version=(\S+) pid=(\d+)$/;

/**
 * The INFO message an engine prints when its number of players online changes (group 1 is the count): the api
 * learns player counts from it instead of polling every engine (docs/decisions/0023-density.md).
 */
export const ENGINE_PLAYERS_MESSAGE = /^Players online: (\d+)$/;

/** `<data-dir>/engine.json`, written at ready and removed on a clean exit. */
export const engineStateFileSchema = z.object({
  pid: z.int(),
  controlHost: z.string(),
  controlPort: z.int(),
  gamePort: z.int(),
  version: z.string(),
  startedAt: z.string(),
  /** A files-only engine (docs/engine-files-api.md): never adopted as the server's game engine. */
  filesOnly: z.boolean().optional(),
});
export type EngineStateFile = z.infer<typeof engineStateFileSchema>;

/** Every control API error body. */
export const engineErrorSchema = z.object({ error: z.string() });

/** GET /stats; uptime in seconds, players online. */
export const engineStatsSchema = z.object({
  players: z.int(),
  version: z.string(),
  uptime: z.number(),
  /** True for a files-only engine (docs/engine-files-api.md). */
  filesOnly: z.boolean().optional(),
});
export type EngineStats = z.infer<typeof engineStatsSchema>;

const whole = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a non-negative integer.`)
    .transform(Number);

/** Query of GET /worlds and GET /players (strings, as they come in a URL); no limit means all. */
export const engineListQuerySchema = z.object({
  search: z.string().max(64, 'search must be at most 64 characters.').optional(),
  offset: whole('offset').optional(),
  limit: whole('limit').optional(),
});

/** Extra filters of GET /players. */
export const enginePlayerQuerySchema = engineListQuerySchema.extend({
  minLevel: whole('minLevel').optional(),
  minGems: whole('minGems').optional(),
  role: z.string().max(32).optional(),
});

/** POST /backup: an absolute path that must not exist yet. */
export const engineBackupRequestSchema = z.strictObject({
  path: z.string().min(1, 'path is required.').max(4096),
});
export const engineBackupResponseSchema = z.object({ path: z.string(), bytes: z.int() });

/** POST /reload: what was loaded; errors name files that were invalid (the previous value is kept). */
export const engineReloadResponseSchema = z.object({
  creators: creatorListSchema,
  autofarmDelay: z.number(),
  errors: z.array(z.string()),
});
export type EngineReloadResponse = z.infer<typeof engineReloadResponseSchema>;

/** POST /console: one console command, trimmed and non-empty. */
export const engineConsoleRequestSchema = z.strictObject({
  command: z.string().trim().min(1, 'command must not be empty.').max(1000),
});

/** A console line with its sequence number (increasing by one from 1 per process). */
export const engineConsoleLineSchema = z.object({ seq: z.int(), line: z.string() });
export type EngineConsoleLine = z.infer<typeof engineConsoleLineSchema>;
export const engineConsoleHistorySchema = z.object({ lines: z.array(engineConsoleLineSchema) });
