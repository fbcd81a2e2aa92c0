// Runs in the worker threads of worker-pool.ts: the bodies that cost the api's event loop tens to hundreds of
// milliseconds (a 600 KB custom item list, a 3 MB world, a 5.6 MB texture upload) are parsed and validated
// here, with the same contract schemas and in the same words as on the event loop (validate.ts).
import { customItemCreateSchema, type ItemConfig, itemConfigSchema, worldPutSchema } from '@canopy/contract';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { checkTextureUpload, type TextureUpload } from '../configuration/custom-texture.ts';
import { AppError, badRequest } from '../errors.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { parse } from '../validate.ts';

/** What each kind of task answers once the body is valid. */
interface Values {
  /** PUT item-config: the custom item list. */
  itemConfig: ItemConfig;
  /** PUT worlds/:name: nothing comes back, the api forwards the bytes it has to the engine. */
  world: null;
  /** POST custom-item: the item's fields and its verified texture. */
  texture: TextureUpload;
}
export type TaskKind = keyof Values;
export type TaskValue<K extends TaskKind> = Values[K];

/** A body's bytes to check as `kind`. */
export interface Task<K extends TaskKind = TaskKind> {
  kind: K;
  bytes: Uint8Array;
}

/** A task's answer across the thread boundary: its value, or the refusal as plain data (an AppError's fields). */
export type TaskAnswer = { ok: true; value: unknown } | { ok: false; status: number; code: string; message: string };

async function perform(task: Task): Promise<unknown> {
  const input = parseJsonBody(task.bytes);
  switch (task.kind) {
    case 'itemConfig':
      return parse(itemConfigSchema, input);
    case 'world':
      // The schema checks the tile list's length against the size before any tile.
      parse(worldPutSchema, input);
      return null;
    case 'texture':
      return checkTextureUpload(parse(customItemCreateSchema, input));
    default:
      throw badRequest('Unknown check.');
  }
}

/**
 * The worker's entry (piscina calls the default export once per task). A texture's bytes move to the api's
 * thread rather than being copied there (a copy of their own here, as Node's small buffers share a pool).
 */
export default async function runTask(task: Task): Promise<TaskAnswer | object> {
  try {
    const value = await perform(task);
    if (task.kind !== 'texture') return { ok: true, value };
    const upload = value as TextureUpload;
    const bytes = new Uint8Array(upload.bytes);
    return move({ [transferableSymbol]: bytes.buffer, [valueSymbol]: { ok: true, value: { ...upload, bytes } } });
  } catch (error) {
    if (error instanceof AppError) return { ok: false, status: error.status, code: error.code, message: error.message };
    throw error;
  }
}
