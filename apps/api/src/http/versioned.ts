import { etagOf, versionedWriteMessages as m, versionFromIfMatch } from '@canopy/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.ts';

// Whole-object reads answer their version as an ETag and writes may name it as If-Match (ADR 0035). These two
// keep the header handling in one place for the world, player, config file and admin settings routes.

/** The version a write's If-Match names, undefined without one; a header that is not one entity tag is a 400. */
export function ifMatchOf(req: FastifyRequest): string | undefined {
  const version = versionFromIfMatch(req.headers['if-match']);
  if (version === null) throw badRequest(m.badIfMatch, 'bad_if_match');
  return version;
}

/** Sets the answer's ETag to a version and returns the body unchanged. */
export function withEtag<T>(reply: FastifyReply, version: string | number, body: T): T {
  reply.header('etag', etagOf(version));
  return body;
}

/** The `version` field of a JSON body whose schema does not keep it (a config file's shape), when it is text. */
export function bodyVersion(body: unknown): string | undefined {
  const version = (body as { version?: unknown } | null)?.version;
  return typeof version === 'string' ? version : undefined;
}
