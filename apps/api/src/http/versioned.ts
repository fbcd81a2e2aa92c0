import {
  versionedWriteCodes as codes,
  etagOf,
  versionedWriteMessages as m,
  versionFromIfMatch,
  WEAK_IF_MATCH,
} from '@canopy/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../errors.ts';

// Whole-object reads answer their version as an ETag and writes may name it as If-Match (ADR 0035). These two
// keep the header handling in one place for the world, player, config file and admin settings routes.

/**
 * The version a write's If-Match names, undefined without one; a header that is not one entity tag is a 400, a
 * weak tag a 412 (If-Match compares strongly, RFC 9110: a weak tag matches nothing; ADR 0035). Only for a route
 * declared with `ifMatch: true` (route.ts).
 */
export function ifMatchOf(req: FastifyRequest): string | undefined {
  // The OpenAPI document lists the header from the route's spec: a route reading it undeclared would hide it.
  if (!(req.routeOptions.config as { ifMatch?: boolean } | undefined)?.ifMatch)
    throw new Error(`${req.method} ${req.routeOptions.url} reads If-Match: declare ifMatch: true in its route() spec`);
  const version = versionFromIfMatch(req.headers['if-match']);
  if (version === null) throw badRequest(m.badIfMatch, codes.badIfMatch);
  if (version === WEAK_IF_MATCH) throw new AppError(412, codes.preconditionFailed, m.weakIfMatch);
  return version as string | undefined;
}

/**
 * The version a write names, as If-Match or as the body's version field (`body`); both may be sent but must
 * agree (400 version_mismatch). Undefined when neither names one.
 */
export function requestedVersion(req: FastifyRequest, body: string | undefined): string | undefined {
  const header = ifMatchOf(req);
  if (header !== undefined && body !== undefined && header !== body)
    throw badRequest(m.versionsDisagree, codes.mismatch);
  return header ?? body;
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
