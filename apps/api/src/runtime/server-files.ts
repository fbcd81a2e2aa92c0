// A hosted server's files, read and written only through its engine's control API (docs/engine-files-api.md): the
// running engine while the server is ONLINE, else a files-only engine its driver starts for the call. Nothing here
// knows where the engine runs; a driver hands over a FilesEndpoint.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { backupMessages as b, hostingMessages as m } from '@canopy/contract';
import { AppError, conflict } from '../errors.ts';
import { ControlClient, ControlError } from './control-client.ts';
import { RuntimeBusyError } from './types.ts';

/** One control client for the length of one call; release() once the call is over (answer read or failed). */
export interface FilesLease {
  control: ControlClient;
  release(): void;
}

/**
 * Where one server's file calls go. A driver counts the leases it handed out, so it can stop an idle files-only
 * engine, and wait for the calls in flight before it starts the server's real engine. Refuses with
 * RuntimeBusyError while the real engine starts or stops (no engine can answer then).
 */
export interface FilesEndpoint {
  acquire(): Promise<FilesLease>;
}

/** What the server stores: everything in bytes, and its database with its write-ahead log. */
export interface ServerUsage {
  bytes: number;
  databaseBytes: number;
}

/** A database copy as it was written: its length and sha256 (hex). */
export interface SnapshotInfo {
  bytes: number;
  sha256: string;
}

/** How long a snapshot or a restore may take as a whole (a large database streams for minutes). */
export const DATABASE_TRANSFER_TIMEOUT_MS = 10 * 60_000;
/** How long any other file call may take. */
const FILE_CALL_TIMEOUT_MS = 30_000;

const unanswered = () => new AppError(502, 'engine_unavailable', 'The server did not answer. Please try again.');

/**
 * The api's error for a failed file call: a full disk (the engine's or the api's) is the 507 the pages know, a running engine or a
 * busy runtime the usual conflicts, a restore the engine found damaged the backup's message; anything else
 * means the engine could not do it (502), or did not in time (504).
 */
export function filesFailure(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (error instanceof RuntimeBusyError) return conflict(m.actionInProgress, 'server_busy');
  // The api's own disk, filling while a snapshot streams into its file.
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC')
    return new AppError(507, 'disk_full', m.diskFull);
  if (error instanceof ControlError) {
    if (error.status === 507) return new AppError(507, 'disk_full', m.diskFull);
    if (error.code === 'engine_running') return conflict(b.serverBusy, 'server_busy');
    if (error.code === 'backup_damaged') return new AppError(422, 'backup_damaged', b.damagedChecksum);
    return unanswered();
  }
  if ((error as Error | undefined)?.name === 'TimeoutError')
    return new AppError(504, 'engine_timeout', m.engineTimeout);
  return unanswered();
}

/** `/files/<name>` with each path segment encoded (a texture is `cache/<name>`). */
const filePath = (name: string) => `/files/${name.split('/').map(encodeURIComponent).join('/')}`;

/** Reads and writes one hosted server's files (names as the engine's file API takes them). */
export class ServerFiles {
  private readonly endpoint: FilesEndpoint;

  /** Calls go to `target`: a driver's endpoint, or one engine's control client directly. */
  constructor(target: FilesEndpoint | ControlClient) {
    this.endpoint =
      target instanceof ControlClient ? { acquire: async () => ({ control: target, release: () => {} }) } : target;
  }

  /** Runs `fn` with a lease, released however it ends; failures become the api's errors (filesFailure). */
  private async call<T>(fn: (control: ControlClient) => Promise<T>): Promise<T> {
    let lease: FilesLease;
    try {
      lease = await this.endpoint.acquire();
    } catch (error) {
      throw filesFailure(error);
    }
    try {
      return await fn(lease.control);
    } catch (error) {
      throw filesFailure(error);
    } finally {
      lease.release();
    }
  }

  /** A file's bytes, or undefined when the server has no such file. */
  read(name: string): Promise<Buffer | undefined> {
    return this.call(async (control) => {
      try {
        const res = await control.send('GET', filePath(name), { signal: AbortSignal.timeout(FILE_CALL_TIMEOUT_MS) });
        return Buffer.from(await res.arrayBuffer());
      } catch (error) {
        if (error instanceof ControlError && error.status === 404) return undefined;
        throw error;
      }
    });
  }

  /**
   * A file as a stream, for an answer that passes it on (a texture download): never held whole, so many slow
   * downloads cost a socket buffer each. Undefined when the server has no such file. The call counts as in flight
   * (a start waits for it) until the stream ends, fails or is destroyed, and at most `timeoutMs`.
   */
  async open(name: string, timeoutMs = FILE_CALL_TIMEOUT_MS): Promise<{ stream: Readable; bytes: number } | undefined> {
    let lease: FilesLease;
    try {
      lease = await this.endpoint.acquire();
    } catch (error) {
      throw filesFailure(error);
    }
    let res: Response;
    try {
      res = await lease.control.send('GET', filePath(name), { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      lease.release();
      if (error instanceof ControlError && error.status === 404) return undefined;
      throw filesFailure(error);
    }
    const stream = res.body
      ? Readable.fromWeb(res.body as import('node:stream/web').ReadableStream)
      : Readable.from([]);
    stream.once('close', () => lease.release());
    return { stream, bytes: Number(res.headers.get('content-length')) };
  }

  /** Writes a file whole or not at all (the engine's temporary file and rename); resolves to its length. */
  write(name: string, bytes: Uint8Array): Promise<number> {
    return this.call(async (control) => {
      const res = await control.send('PUT', filePath(name), {
        body: bytes,
        signal: AbortSignal.timeout(FILE_CALL_TIMEOUT_MS),
      });
      return ((await res.json()) as { bytes: number }).bytes;
    });
  }

  /** Deletes a file; resolves to whether there was one. */
  remove(name: string): Promise<boolean> {
    return this.call(async (control) => {
      const res = await control.send('DELETE', filePath(name), { signal: AbortSignal.timeout(FILE_CALL_TIMEOUT_MS) });
      return ((await res.json()) as { deleted: boolean }).deleted;
    });
  }

  /** The names of the textures in the server's cache. */
  listTextures(): Promise<string[]> {
    return this.call(async (control) => {
      const res = await control.send('GET', '/files/cache', { signal: AbortSignal.timeout(FILE_CALL_TIMEOUT_MS) });
      return ((await res.json()) as { names: string[] }).names;
    });
  }

  /** What the server stores, as its engine measures it. */
  usage(): Promise<ServerUsage> {
    return this.call(async (control) => {
      const res = await control.send('GET', '/usage', { signal: AbortSignal.timeout(FILE_CALL_TIMEOUT_MS) });
      const { bytes, databaseBytes } = (await res.json()) as ServerUsage;
      return { bytes, databaseBytes };
    });
  }

  /**
   * Streams a consistent copy of the server's database (the engine's online backup while it runs) into a new
   * file `to` (0600), checking its length and sha256 against what the engine announced; null when the server
   * has no database yet. A failed transfer leaves no file.
   */
  snapshot(to: string, timeoutMs = DATABASE_TRANSFER_TIMEOUT_MS): Promise<SnapshotInfo | null> {
    return this.call(async (control) => {
      let res: Response;
      try {
        res = await control.send('GET', '/snapshot', { signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if (error instanceof ControlError && error.status === 404) return null;
        throw error;
      }
      const announced = {
        bytes: Number(res.headers.get('content-length')),
        sha256: res.headers.get('x-canopy-sha256'),
      };
      const hash = createHash('sha256');
      let bytes = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      try {
        if (!res.body) throw new Error('the engine sent no snapshot');
        await pipeline(
          Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
          measure,
          createWriteStream(to, { flags: 'wx', mode: 0o600 }),
        );
        const sha256 = hash.digest('hex');
        if (bytes !== announced.bytes || sha256 !== announced.sha256)
          throw new AppError(500, 'backup_invalid', b.createdNotValid);
        return { bytes, sha256 };
      } catch (error) {
        await rm(to, { force: true });
        throw error;
      }
    });
  }

  /**
   * Sends the database in `source` (already verified to be `expected`) to replace the server's, which only a
   * files-only engine does: it stages it, checks it again and swaps it in, or leaves the live database untouched.
   */
  restore(expected: SnapshotInfo, source: string, timeoutMs = DATABASE_TRANSFER_TIMEOUT_MS): Promise<void> {
    return this.call(async (control) => {
      const query = `sha256=${expected.sha256}&bytes=${expected.bytes}`;
      const body = Readable.toWeb(createReadStream(source)) as ReadableStream<Uint8Array>;
      const res = await control.send('PUT', `/restore?${query}`, {
        body,
        headers: { 'content-length': String(expected.bytes) },
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
    });
  }
}
