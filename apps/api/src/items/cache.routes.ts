// GET /cache/{file}: a texture of the item database. Only two kinds of names are looked up: a base texture listed
// when the database was loaded (a file of its folder), or a custom texture (content-hashed name) of the caller's own
// server (asked of its engine). A name is never joined to a path before it matched one of those patterns, so
// `..`, slashes (encoded or not), absolute paths and NUL bytes cannot reach anything else.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { baseTextureNamePattern, customTextureNamePattern, itemMessages } from '@canopy/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { route } from '../http/route.ts';
import type { ItemDatabase } from './item-database.ts';
import { mayOpenItemPages, ownServer } from './own-server.ts';

/** Largest texture served; a real game sheet is a few MB. */
const MAX_TEXTURE_BYTES = 64 * 1024 * 1024;
// Base names keep their name when an operator installs new files: browsers revalidate after 5 minutes.
const BASE_CACHE_CONTROL = 'private, max-age=300, must-revalidate';
// A custom texture's name is its content hash: it can never change.
const HASHED_CACHE_CONTROL = 'private, max-age=31536000, immutable';

type Texture = { handle: FileHandle; size: number; key: string };

/**
 * Opens a regular file (never through a symlink), or null when it is not there. The caller streams it and
 * closes it: a texture is never held whole in memory, so a thousand downloads of a 4 MB texture by one
 * user cost the api a socket buffer each, not 4 GB.
 */
async function openTexture(path: string): Promise<Texture | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size <= MAX_TEXTURE_BYTES)
      return { handle, size: info.size, key: `${info.ino}:${info.mtimeMs}:${info.size}` };
  } catch {
    // treated as missing
  }
  await handle.close();
  return null;
}

/** The ETag of an open file's content, read in small pieces (the handle stays open, its position unused). */
async function contentTag(handle: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (let at = 0; ; ) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, at);
    if (bytesRead === 0) break;
    hash.update(chunk.subarray(0, bytesRead));
    at += bytesRead;
  }
  return `"${hash.digest('base64url').slice(0, 22)}"`;
}

/** Registers GET /cache/:file on the given item database. */
export function cacheRoutes(app: FastifyInstance, ctx: AppContext, items: ItemDatabase) {
  // ETags of base textures by path, recomputed when the file changes (inode, mtime or size).
  const etags = new Map<string, { key: string; etag: string }>();

  route(app, ctx, {
    method: 'GET',
    url: '/cache/:file',
    access: 'user',
    response: { mediaType: 'application/octet-stream' },
    handler: async ({ caller, params, req, reply }) => {
      mayOpenItemPages(ctx, caller);
      const name = params.file ?? '';
      const custom = customTextureNamePattern.test(name);
      if (!custom && !baseTextureNamePattern.test(name))
        throw badRequest('Texture names are file names such as tiles_page1.rttex.', 'invalid_texture_name');
      const matches = (etag: string | undefined) =>
        req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) ?? false;
      if (custom) return customTexture(name, matches);
      const path = await items.baseTexture(name);
      const file = path ? await openTexture(path) : null;
      if (!path || !file) throw notFound(itemMessages.textureNotFound, 'texture_not_found');

      let stream: ReturnType<FileHandle['createReadStream']> | null = null;
      try {
        let etag = etags.get(path)?.etag;
        if (etags.get(path)?.key !== file.key) {
          etag = await contentTag(file.handle);
          etags.set(path, { key: file.key, etag });
        }
        reply.header('ETag', etag);
        reply.header('Cache-Control', BASE_CACHE_CONTROL);
        if (matches(etag)) return reply.code(304).send();
        reply.type('application/octet-stream').header('Content-Length', file.size);
        if (file.size === 0) return reply.send(Buffer.alloc(0));
        // The stream owns the handle from here: it closes it at the end, on an error or when the client goes.
        stream = file.handle.createReadStream({ start: 0 });
        return reply.send(stream);
      } finally {
        if (!stream) await file.handle.close().catch(() => {});
      }

      /**
       * A custom texture of the caller's own server, read through its engine's file API. Its name is its content
       * hash, so the name's hex part is its tag and a browser that has it is answered without asking the engine.
       */
      async function customTexture(file: string, matches: (etag: string) => boolean) {
        const server = await ownServer(ctx, caller);
        if (!server) throw notFound(itemMessages.textureNotFound, 'texture_not_found');
        const etag = `"${file.slice('custom_'.length, -'.rttex'.length)}"`;
        reply.header('ETag', etag);
        reply.header('Cache-Control', HASHED_CACHE_CONTROL);
        if (matches(etag)) return reply.code(304).send();
        // Streamed from the engine, never held whole (see openTexture).
        const found = await ctx.servers.runtime.files(ctx.servers.spec(server)).open(`cache/${file}`);
        if (!found || !(found.bytes <= MAX_TEXTURE_BYTES)) {
          found?.stream.destroy();
          reply.removeHeader('ETag').removeHeader('Cache-Control');
          throw notFound(itemMessages.textureNotFound, 'texture_not_found');
        }
        return reply.type('application/octet-stream').header('Content-Length', found.bytes).send(found.stream);
      }
    },
  });
}
