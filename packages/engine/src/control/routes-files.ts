import { constants } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { notFound } from '../errors.ts';
import { fsyncDir, writeFileAtomic } from '../files/atomic.ts';
import type { FilesContext } from '../files/context.ts';
import { filePath, isTextureName } from '../files/names.ts';
import { usage } from '../files/usage.ts';
import { TEXTURE_CACHE_DIR } from '../items/effective-items.ts';
import { Bytes, bodyChunks, Reply, type Route } from './server.ts';

// The file API (docs/engine-files-api.md): the api reads and writes a server's files only through these, in either
// mode. The snapshot and the restore load their code on first use: an idle engine never needs it.

const FILE = /^\/files\/([^/]+)$/;
const TEXTURE = /^\/files\/cache\/([^/]+)$/;

/** A regular file's bytes, never through a symlink (ELOOP) and never a directory (EISDIR). */
async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`${path} is not a file`), { code: 'EISDIR' });
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The file a request names: a config file or items.dat, or a texture (`cache/<name>`). */
const target = (ctx: FilesContext, params: string[], texture: boolean) =>
  filePath(ctx.options.dataDir, params[0] ?? '', texture);

const fileRoutes = (texture: boolean, path: RegExp): Route<FilesContext>[] => [
  {
    method: 'GET',
    path,
    handler: async (ctx, { params }) => {
      const file = target(ctx, params, texture);
      try {
        return new Bytes(await readRegularFile(file));
      } catch (error) {
        // ELOOP: a symlink (never one the file API wrote), which must not lead out of the data directory.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'EISDIR') throw error;
        throw notFound(`The server has no file ${params[0]}.`, 'not_found');
      }
    },
  },
  {
    method: 'PUT',
    path,
    raw: true,
    // Streamed to a temporary file as it comes (at most MAX_BODY_BYTES), then renamed over the file.
    handler: async (ctx, { params, req }) => {
      const { bytes } = await writeFileAtomic(target(ctx, params, texture), bodyChunks(req));
      return { bytes };
    },
  },
  {
    method: 'DELETE',
    path,
    handler: async (ctx, { params }) => {
      const file = target(ctx, params, texture);
      try {
        await rm(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { deleted: false };
        throw error;
      }
      await fsyncDir(dirname(file));
      return { deleted: true };
    },
  },
];

/** The file API's routes, in both modes. */
export const filesRoutes: Route<FilesContext>[] = [
  {
    method: 'GET',
    path: /^\/files\/cache$/,
    handler: async (ctx) => {
      const names = await readdir(join(ctx.options.dataDir, TEXTURE_CACHE_DIR)).catch(() => []);
      return { names: names.filter(isTextureName).sort() };
    },
  },
  ...fileRoutes(true, TEXTURE),
  ...fileRoutes(false, FILE),
  { method: 'GET', path: /^\/usage$/, handler: (ctx) => usage(ctx.options.dataDir) },
  {
    method: 'GET',
    path: /^\/snapshot$/,
    stream: true,
    handler: async (ctx, { res }) => (await import('../files/snapshot.ts')).sendSnapshot(ctx, res),
  },
  {
    method: 'PUT',
    path: /^\/restore$/,
    raw: true,
    handler: async (ctx, { req, query }) => (await import('../files/restore.ts')).restoreDatabase(ctx, req, query),
  },
];

/** A files-only engine's /stats and /stop besides the file API (files/files-only-engine.ts). */
export const filesOnlyRoutes: Route<FilesContext>[] = [
  {
    method: 'GET',
    path: /^\/stats$/,
    handler: (ctx) => ({
      players: 0,
      version: ctx.version,
      uptime: Math.round((Date.now() - ctx.startedAt) / 1000),
      itemsDatHash: null,
      filesOnly: true,
    }),
  },
  {
    method: 'POST',
    path: /^\/stop$/,
    handler: (ctx) => {
      // Answer first: the stop closes this server.
      setImmediate(() => ctx.stop('a control API request'));
      return new Reply(202, { message: 'Stopping.' });
    },
  },
  ...filesRoutes,
];
