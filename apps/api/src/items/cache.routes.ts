// GET /cache/{file}: a texture of the item database. Only two kinds of names are looked up, and only in two
// folders: a base texture listed when the database was loaded, or a custom texture (content-hashed name) of
// the caller's own server. A name is never joined to a path before it matched one of those patterns, so
// `..`, slashes (encoded or not), absolute paths and NUL bytes cannot reach anything else.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { baseTextureNamePattern, customTextureNamePattern, itemMessages } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { route } from '../http/route.ts';
import type { ItemDatabase } from './item-database.ts';
import { ownServerDir, registered } from './own-server.ts';

/** Largest texture served; a real game sheet is a few MB. */
const MAX_TEXTURE_BYTES = 64 * 1024 * 1024;
// Base names keep their name when an operator installs new files: browsers revalidate after 5 minutes.
const BASE_CACHE_CONTROL = 'private, max-age=300, must-revalidate';
// A custom texture's name is its content hash: it can never change.
const HASHED_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** Reads a regular file (never through a symlink), or null when it is not there. */
async function readTexture(path: string): Promise<{ bytes: Buffer; key: string } | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_TEXTURE_BYTES) return null;
    return { bytes: await handle.readFile(), key: `${info.ino}:${info.mtimeMs}:${info.size}` };
  } finally {
    await handle.close();
  }
}

/** Registers GET /cache/:file on the given item database. */
export function cacheRoutes(app: FastifyInstance, ctx: AppContext, items: ItemDatabase) {
  // ETags of base textures by path, recomputed when the file changes (inode, mtime or size).
  const etags = new Map<string, { key: string; etag: string }>();

  route(app, ctx, {
    method: 'GET',
    url: '/cache/:file',
    access: 'user',
    handler: async ({ caller, params, req, reply }) => {
      registered(caller);
      const name = params.file ?? '';
      const custom = customTextureNamePattern.test(name);
      if (!custom && !baseTextureNamePattern.test(name))
        throw badRequest('Texture names are file names such as tiles_page1.rttex.', 'invalid_texture_name');
      const dir = custom ? await ownServerDir(ctx, caller) : null;
      const path = custom ? dir && join(dir, 'cache', name) : await items.baseTexture(name);
      const file = path ? await readTexture(path) : null;
      if (!path || !file) throw notFound(itemMessages.textureNotFound, 'texture_not_found');

      let etag = custom ? `"${name.slice(7, 23)}"` : etags.get(path)?.etag;
      if (!custom && etags.get(path)?.key !== file.key) {
        etag = `"${createHash('sha256').update(file.bytes).digest('base64url').slice(0, 22)}"`;
        etags.set(path, { key: file.key, etag });
      }
      reply.header('ETag', etag);
      reply.header('Cache-Control', custom ? HASHED_CACHE_CONTROL : BASE_CACHE_CONTROL);
      const match = req.headers['if-none-match'];
      if (match?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
      return reply.type('application/octet-stream').send(file.bytes);
    },
  });
}
