import type { DatabaseSync } from 'node:sqlite';
import type { EngineOptions } from '../cli/args.ts';
import type { ControlContext } from '../control/server.ts';

/**
 * What the file routes work with: a running engine (its context has all of this) or a files-only one, which has
 * no game and no database open (docs/engine-files-api.md).
 */
export interface FilesContext extends ControlContext {
  readonly options: EngineOptions;
  readonly version: string;
  /** Epoch ms when the process started. */
  readonly startedAt: number;
  /** The live database of a running game; a files-only engine opens it only for a snapshot or a restore. */
  readonly db?: DatabaseSync;
  /** The running game, whose worlds in memory a snapshot writes first. */
  readonly network?: { save(): void };
  /** Stops the engine and exits the process (status 0 unless given). */
  stop(reason: string, exitCode?: number): void;
}
