import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import {
  idempotencyCodes as codes,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAY_HEADER,
  idempotencyMessages as texts,
} from '@canopy/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { idempotencyRepo } from './idempotency.repo.ts';
import { callerOf } from './route.ts';

/** How long an answer is kept for a repeated key: far longer than any client retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Largest answer kept; the mutating routes answer a few hundred bytes, so this only stops abuse. */
export const IDEMPOTENCY_MAX_ANSWER_BYTES = 64 * 1024;
/** A claim older than this whose request never answered (the api died mid-request) may be taken over. */
const ABANDONED_CLAIM_MS = 10 * 60 * 1000;
/** Expired rows are deleted at most this often, by the request that notices. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** Request bodies hashed as they stream in, so the fingerprint never re-serialises a parsed body. */
const bodyHashes = new WeakMap<FastifyRequest, Hash>();
/** Requests that hold a claim on a key and must settle it when they answer. */
const claims = new WeakMap<FastifyRequest, { userId: string; key: string }>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What is worth replaying: successes and refusals. Server errors, 401 (fixed by a refresh), 408 and 429
 * are given back so that a retry runs again.
 */
const isKept = (status: number) =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![401, 408, 429].includes(status));

/**
 * Whether a route() route honours Idempotency-Key (for the OpenAPI document): a mutating method with a signed-in
 * caller, which every route but a public one has (route.ts authenticates it before these hooks run).
 */
export function honoursIdempotencyKey(route: { method: string; access: unknown }): boolean {
  return MUTATING.has(route.method) && route.access !== 'public';
}

function payloadText(payload: unknown): string | null {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null; // a stream: never produced by these routes, and not something to buffer here
}

/**
 * Honours `Idempotency-Key` on every mutating route a signed-in user calls: the same user, key and
 * request get the stored answer with no second effect; the key with another request is refused (422);
 * a repeat while the first is still running is refused (409, which the web client retries).
 * Runs after the route chain's authentication (onRequest), so a key is always scoped to a verified user.
 * Public routes ignore the key: there is no user to scope it to, and their answers hold tokens.
 * The hooks are attached to the mutating routes only (as each is declared, hence before any route is),
 * so a read pays nothing for them: as global hooks they were four async calls on every GET.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext) {
  let lastPrune = Number.NEGATIVE_INFINITY;
  const hooks: Pick<RouteOptions, 'preParsing' | 'preHandler' | 'onSend' | 'onResponse'> = {};

  hooks.preParsing = async (req, _reply, payload) => {
    if (!MUTATING.has(req.method) || req.headers[HEADER] === undefined || !callerOf(req)) return payload;
    const hash = createHash('sha256');
    bodyHashes.set(req, hash);
    const tee = new Transform({
      transform(chunk, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    payload.on('error', (error) => tee.destroy(error));
    return payload.pipe(tee);
  };

  hooks.preHandler = async (req, reply) => {
    const raw = req.headers[HEADER];
    const caller = callerOf(req);
    if (!MUTATING.has(req.method) || raw === undefined || !caller) return;
    if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) throw new AppError(400, codes.invalidKey, texts.invalidKey);
    const userId = caller.user.id;
    const fingerprint = sha256(`${req.method} ${req.url}\n${bodyHashes.get(req)?.digest('hex') ?? ''}`);
    const now = ctx.now();
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await idempotencyRepo.prune(ctx.db, now - IDEMPOTENCY_TTL_MS);
    }

    // More than one round covers a row that expired or was given back between our claim and our read.
    for (let round = 0; round < 3; round++) {
      if (await idempotencyRepo.claim(ctx.db, userId, raw, fingerprint, now)) {
        claims.set(req, { userId, key: raw });
        return;
      }
      const row = await idempotencyRepo.find(ctx.db, userId, raw);
      if (!row) continue;
      if (
        row.created_at < now - IDEMPOTENCY_TTL_MS ||
        (row.status === null && row.created_at < now - ABANDONED_CLAIM_MS)
      ) {
        await idempotencyRepo.dropIfStale(ctx.db, userId, raw, now - IDEMPOTENCY_TTL_MS, now - ABANDONED_CLAIM_MS);
        continue;
      }
      if (row.fingerprint !== fingerprint) throw new AppError(422, codes.keyReused, texts.keyReused);
      if (row.status === null) return refuseInFlight(reply);
      if (row.body === null) throw new AppError(409, codes.answerUnavailable, texts.answerUnavailable);
      reply.code(row.status).header(IDEMPOTENT_REPLAY_HEADER, 'true');
      if (row.content_type) reply.header('content-type', row.content_type);
      return reply.send(row.body);
    }
    return refuseInFlight(reply);
  };

  hooks.onSend = async (req, reply, payload) => {
    const claim = claims.get(req);
    if (!claim) return payload;
    claims.delete(req);
    try {
      if (!isKept(reply.statusCode)) {
        await idempotencyRepo.release(ctx.db, claim.userId, claim.key);
        return payload;
      }
      const text = payloadText(payload);
      const fits = text !== null && Buffer.byteLength(text) <= IDEMPOTENCY_MAX_ANSWER_BYTES;
      const contentType = reply.getHeader('content-type');
      await idempotencyRepo.settle(ctx.db, claim.userId, claim.key, {
        status: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: fits ? text : null,
      });
    } catch (error) {
      // The action has happened; failing its answer now would invite the retry this is meant to stop.
      req.log.error({ err: error }, 'could not store the answer for an idempotency key');
    }
    return payload;
  };

  // A request that never reached onSend (its connection died first) gives its key back.
  hooks.onResponse = async (req) => {
    const claim = claims.get(req);
    if (!claim) return;
    claims.delete(req);
    await idempotencyRepo.release(ctx.db, claim.userId, claim.key).catch(() => {});
  };

  // Route-level hooks run after the global ones of the same kind, as these did when they were global
  // (registered after the request guards).
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (!methods.some((method) => MUTATING.has(method))) return;
    for (const name of ['preParsing', 'preHandler', 'onSend', 'onResponse'] as const) {
      const own = options[name] as unknown;
      (options as unknown as Record<string, unknown>)[name] = [...(own === undefined ? [] : [own].flat()), hooks[name]];
    }
  });
}

function refuseInFlight(reply: FastifyReply) {
  return reply.code(409).header('retry-after', '1').send({ error: texts.inFlight, code: codes.inFlight });
}
