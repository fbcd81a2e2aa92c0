/**
 * A refusal with an HTTP status and a precise message; control routes answer it as `{error}`, with `code` when it
 * has one the api passes on (a refused conditional save: the panel offers to reload on it).
 */
export class EngineError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const badRequest = (message: string) => new EngineError(400, message);
export const notFound = (message: string, code?: string) => new EngineError(404, message, code);
export const conflict = (message: string) => new EngineError(409, message);

const SQLITE_FULL = 13;

/**
 * True when an error means the disk (or the database's size cap) is full: SQLite's SQLITE_FULL, or a
 * file write's ENOSPC or EDQUOT. SQLite has rolled the write back by then, so nothing was half-saved.
 */
export function isDiskFull(error: unknown): boolean {
  const e = error as { errcode?: unknown; code?: unknown } | null;
  if (typeof e?.errcode === 'number' && (e.errcode & 0xff) === SQLITE_FULL) return true;
  return e?.code === 'ENOSPC' || e?.code === 'EDQUOT';
}

/** The control API's answer to a full disk (HTTP 507 Insufficient Storage). */
export const DISK_FULL_MESSAGE = 'The server is out of storage space; the change was not saved.';
