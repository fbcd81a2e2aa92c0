import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files.ts';

// Through getBuiltinModule, not an ES import of node:crypto (players/password.ts says why).
const crypto = () => process.getBuiltinModule('node:crypto');

/** A temporary name beside `file`: `<file>.<12 hex>.tmp`, what the start-up sweep removes (names.ts). */
export const tempBeside = (file: string) => `${file}.${crypto().randomBytes(6).toString('hex')}.tmp`;

/** fsync of a directory, so that a rename or removal in it survives a power loss (best effort where refused). */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // some file systems do not sync directories; the rename itself is still atomic
  } finally {
    await handle.close();
  }
}

/** What was written: its length and sha256 (hex). */
export interface Written {
  bytes: number;
  sha256: string;
}

/**
 * Writes `chunks` into a new temporary file beside `file` (0600), flushed to disk, and hands its path and what was
 * written to `commit`, which must rename it into place or throw. The temporary file never outlives a failure
 * (a full disk, a client gone mid-body, a refused check); one a killed engine left is swept at its next start.
 */
export async function writeThenCommit<T>(
  file: string,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  commit: (temp: string, written: Written) => Promise<T>,
): Promise<T> {
  await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const temp = tempBeside(file);
  try {
    const hash = crypto().createHash('sha256');
    let bytes = 0;
    const handle = await open(temp, 'wx', PRIVATE_FILE);
    try {
      for await (const chunk of chunks) {
        hash.update(chunk);
        bytes += chunk.length;
        await handle.write(chunk);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    return await commit(temp, { bytes, sha256: hash.digest('hex') });
  } finally {
    await rm(temp, { force: true });
  }
}

/** Writes a file whole or not at all: temporary file, fsync, rename over it, fsync of the directory. */
export function writeFileAtomic(
  file: string,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  check?: (written: Written) => void,
): Promise<Written> {
  return writeThenCommit(file, chunks, async (temp, written) => {
    check?.(written);
    await rename(temp, file);
    await fsyncDir(dirname(file));
    return written;
  });
}
