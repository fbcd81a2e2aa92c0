import type { AdminPermission } from '@canopy/contract';
import { hasAdminPermission, messages } from '@canopy/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { accessServer, type ServerAccess, type ServerRequirement } from '../access/server-access.ts';
import { authenticate, type Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { AppError, forbidden } from '../errors.ts';
import { recordRoute } from '../openapi/registry.ts';
import { adminCaller } from '../users/profile.ts';
import { parse } from '../validate.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';
import { type Limiter, limiter, type RateRule } from './rate-limits.ts';

/** Who may call a route: anyone, any signed-in user, an admin holding a permission, or a super admin only. */
export type Access = 'public' | 'user' | 'superAdmin' | { admin: AdminPermission };

/**
 * A server-scoped route (`/users/:id/server/...`): the permission it needs on the caller's server,
 * optionally with the texts for "no server" and "not the owner" when the route's spec words them
 * differently from the defaults.
 */
export type ServerNeed = ServerRequirement | { need: ServerRequirement; noServer?: string; notOwner?: string };

/** What the chain resolved before the body was read. */
interface Resolved {
  caller?: Caller;
  server?: ServerAccess;
}

type CallerOf<A extends Access> = A extends 'public' ? undefined : Caller;
type BodyOf<B extends z.ZodType | undefined> = B extends z.ZodType ? z.infer<B> : undefined;
type QueryOf<Q extends z.ZodType | undefined> = Q extends z.ZodType ? z.infer<Q> : Record<string, string | undefined>;

/** What a route answers on success: a contract schema (JSON), or a file of a media type. */
export type RouteResponse = z.ZodType | { mediaType: string };

/**
 * Rate limits of a route. perIp is counted first, before authentication and the body. perAccount
 * counts per signed-in user (key 'caller': right after authentication, before the body), or per a
 * key taken from the validated body (a refresh token: after validation).
 */
export interface RouteRateLimit<B extends z.ZodType | undefined> {
  perIp?: RateRule;
  perAccount?: { rule: RateRule; key: 'caller' | ((body: BodyOf<B>) => string) };
  /**
   * A limiter several routes share (one budget for a family of writes, e.g. every configuration write),
   * counted per signed-in user right after authentication, before the body.
   */
  perCallerShared?: Limiter;
}

interface RouteSpec<
  B extends z.ZodType | undefined,
  A extends Access,
  S extends ServerNeed | undefined,
  Q extends z.ZodType | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A server-scoped route's url has `:id`, the caller's own user id. */
  url: string;
  access: A;
  /** Server-scoped routes: decided with accessServer before the body is read; needs access 'user'. */
  server?: S;
  body?: B;
  /** The query string's contract schema: parsed before the handler (a 400 naming the field), which gets the result. */
  query?: Q;
  /**
   * The schema of a body the handler reads itself (a rawBody route's bytes, checked elsewhere, or one parsed with
   * texts of its own for a missing body). Only the OpenAPI document uses it.
   */
  describedBody?: z.ZodType;
  /** The success answer, for the OpenAPI document (ADR 0046); absent when the contract has only a TypeScript type. */
  response?: RouteResponse;
  /**
   * The write is conditional on an If-Match header (ADR 0035, versioned.ts): documented as a header parameter, and
   * required of any route whose handler reads it (ifMatchOf refuses to read it otherwise).
   */
  ifMatch?: true;
  /** The success status, set before the handler runs; default 200. */
  status?: 200 | 201 | 202;
  /** One line for the OpenAPI document when the url and method do not say it. */
  summary?: string;
  /**
   * The body is not parsed here: its bytes reach the handler as `raw`, for a large body that an engine
   * validates with the same contract schema (a whole world: parsing 3 MB of JSON would hold the api's
   * event loop for tens of milliseconds per request). Excludes `body`.
   */
  rawBody?: true;
  /** Largest accepted body in bytes; default DEFAULT_BODY_LIMIT (16 KB). Size it from the largest legitimate request. */
  bodyLimit?: number;
  rateLimit?: RouteRateLimit<B>;
  /**
   * Last step before the body is read: may wait for a turn or refuse (a per-server write queue). What it
   * returns is called once the answer is sent or the connection is gone.
   */
  admit?: (input: {
    server: S extends ServerNeed ? ServerAccess : undefined;
    req: FastifyRequest;
    /** Aborted when the caller's connection closes while it waits: it must leave the line. */
    signal: AbortSignal;
  }) => Promise<() => void>;
  handler: (input: {
    caller: CallerOf<A>;
    /** The caller's access to their server, when the spec names `server`. */
    server: S extends ServerNeed ? ServerAccess : undefined;
    body: BodyOf<B>;
    /** The body's bytes, for a `rawBody` route (undefined when the request had none). */
    raw: Buffer | undefined;
    params: Record<string, string>;
    query: QueryOf<Q>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>;
}

const resolved = new WeakMap<FastifyRequest, Resolved>();

/** The signed-in caller of a request once the route chain has authenticated it (for hooks such as idempotency). */
export function callerOf(req: FastifyRequest): Caller | undefined {
  return resolved.get(req)?.caller;
}

/**
 * Declares a route as data. The chain is rate limit per IP → authenticate → rate limit per user →
 * authorize (admin permission, server access) → admit (wait for a turn) → read the body (bounded by bodyLimit) → validate → rate
 * limit per body key → handler.
 * Everything before the body runs in an onRequest hook, so a caller who may not use the route is refused
 * before a byte of the body is read or parsed.
 */
export function route<
  B extends z.ZodType | undefined,
  A extends Access,
  S extends ServerNeed | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(app: FastifyInstance, ctx: AppContext, spec: RouteSpec<B, A, S, Q>) {
  if (spec.rawBody && spec.body) throw new Error(`${spec.method} ${spec.url}: rawBody and body exclude each other`);
  const serverNeed: Exclude<ServerNeed, string> | undefined =
    typeof spec.server === 'string' ? { need: spec.server as ServerRequirement } : spec.server;
  if (serverNeed && (spec.access !== 'user' || !spec.url.includes(':id')))
    throw new Error(`${spec.method} ${spec.url}: a server-scoped route needs access 'user' and an :id parameter`);
  const counters = (what: string) => ({ db: ctx.db, name: `${spec.method} ${spec.url} ${what}` });
  const ipLimit = spec.rateLimit?.perIp && limiter(app, spec.rateLimit.perIp, counters('ip'));
  const account = spec.rateLimit?.perAccount;
  const accountLimit = account && limiter(app, account.rule, counters('account'));
  const bodyKey = typeof account?.key === 'function' ? account.key : undefined;
  if (account?.key === 'caller' && spec.access === 'public')
    throw new Error(`${spec.method} ${spec.url}: a public route has no caller to rate-limit`);

  recordRoute(ctx, {
    method: spec.method,
    url: spec.url,
    access: spec.access,
    server: serverNeed?.need,
    body: spec.body ?? spec.describedBody,
    rawBody: spec.rawBody === true,
    query: spec.query,
    response: spec.response,
    ifMatch: spec.ifMatch === true,
    status: spec.status ?? 200,
    summary: spec.summary,
    bodyLimit: spec.bodyLimit ?? DEFAULT_BODY_LIMIT,
    rateLimit: {
      perIp: spec.rateLimit?.perIp,
      perAccount: account && { rule: account.rule, key: typeof account.key === 'function' ? 'body' : 'caller' },
      perCallerShared: spec.rateLimit?.perCallerShared?.rule,
    },
  });

  const checkResponses = ctx.config.nodeEnv === 'test';
  // Anything but a GET changes the server: refused on a banned owner's server (accessServer).
  const reads = spec.method === 'GET';
  app.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: spec.bodyLimit ?? DEFAULT_BODY_LIMIT,
    config: { rawBody: spec.rawBody === true, ifMatch: spec.ifMatch === true },
    onRequest: async (req, reply) => {
      if (ipLimit) await ipLimit(req, reply);
      if (spec.access === 'public') return;
      const caller = await authenticate(ctx, req.headers.authorization);
      if (accountLimit && account?.key === 'caller') await accountLimit(req, reply, caller.user.id);
      if (spec.rateLimit?.perCallerShared) await spec.rateLimit.perCallerShared(req, reply, caller.user.id);
      if (typeof spec.access === 'object' && !hasAdminPermission(adminCaller(caller.user), spec.access.admin))
        throw forbidden(caller.user.is_admin ? messages.missingPermission : messages.adminOnly);
      if (spec.access === 'superAdmin' && caller.user.is_super_admin !== 1)
        throw forbidden(caller.user.is_admin ? messages.missingPermission : messages.adminOnly);
      const params = req.params as Record<string, string>;
      const server = serverNeed
        ? await accessServer(ctx, caller, params.id ?? '', serverNeed.need, { ...serverNeed, write: !reads })
        : undefined;
      resolved.set(req, { caller, server });
      if (spec.admit) await admit(spec.admit as Admit, server, req, reply);
    },
    handler: async (req, reply) => {
      const { caller, server } = resolved.get(req) ?? {};
      const body = (spec.body ? parse(spec.body, req.body) : undefined) as BodyOf<B>;
      if (accountLimit && bodyKey) await accountLimit(req, reply, bodyKey(body));
      const query = (spec.query ? parse(spec.query, req.query, 'Query') : req.query) as QueryOf<Q>;
      if (spec.status) reply.code(spec.status);
      const answer = await spec.handler({
        caller: caller as CallerOf<A>,
        server: server as never,
        body,
        raw: spec.rawBody && Buffer.isBuffer(req.body) ? req.body : undefined,
        params: req.params as Record<string, string>,
        query,
        req,
        reply,
      });
      if (checkResponses && answer !== reply) checkResponse(spec, answer);
      return answer;
    },
  });
}

/**
 * Under NODE_ENV=test every JSON answer is checked against the route's response schema, so that the OpenAPI
 * document cannot drift from what the api sends (conventions: responses validated in tests).
 */
function checkResponse(spec: { method: string; url: string; response?: RouteResponse }, answer: unknown) {
  const schema = spec.response;
  if (!schema || 'mediaType' in schema) return;
  const result = schema.safeParse(answer);
  if (result.success) return;
  const issue = result.error.issues[0];
  throw new AppError(
    500,
    'response_contract',
    `${spec.method} ${spec.url} answered outside its response schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
  );
}

/** How long an admitted request may take to send its body: a turn is not held by a stalled upload. */
export const ADMITTED_BODY_MS = 60_000;

type Admit = (input: {
  server: ServerAccess | undefined;
  req: FastifyRequest;
  signal: AbortSignal;
}) => Promise<() => void>;

/**
 * Waits for the route's turn, gives it back once the answer is sent or the connection is gone (also when
 * it went while waiting), and ends an upload that has not arrived within ADMITTED_BODY_MS.
 */
async function admit(wait: Admit, server: ServerAccess | undefined, req: FastifyRequest, reply: FastifyReply) {
  const gone = new AbortController();
  const onGone = () => gone.abort();
  reply.raw.once('close', onGone);
  const release = await wait({ server, req, signal: gone.signal });
  reply.raw.off('close', onGone);
  if (gone.signal.aborted || reply.raw.destroyed) {
    release();
    throw new AppError(499, 'client_gone', 'The request was abandoned.');
  }
  const stalled = setTimeout(() => {
    if (!req.raw.complete) req.raw.destroy();
  }, ADMITTED_BODY_MS);
  reply.raw.once('close', () => {
    clearTimeout(stalled);
    release();
  });
}
