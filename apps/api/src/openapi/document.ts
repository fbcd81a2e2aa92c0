import {
  errorBodySchema,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAY_HEADER,
} from '@canopy/contract';
import { honoursIdempotencyKey, IDEMPOTENCY_TTL_MS } from '../http/idempotency.ts';
import { excludedRoutes, webSocketNote } from './excluded.ts';
import { SchemaConverter } from './json-schema.ts';
import type { DeclaredRoute } from './registry.ts';

type Json = Record<string, unknown>;

const errorTexts: Record<number, string> = {
  400: 'Invalid request: a body, query or path parameter the contract refuses (the message names the field).',
  401: 'No session token, or one that is invalid or expired.',
  403: 'Signed in but not allowed (missing permission, not registered, banned, not the owner).',
  404: 'Nothing with that name or id.',
  409: 'Conflict: changed since it was read (If-Match / version), or another action is in progress.',
  412: 'If-Match named a weak entity tag (W/"…"), which never matches: send back the ETag of the GET as given.',
  413: 'The body is larger than the route accepts.',
  422: `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request.`,
  428: "A whole-object save that names no version: send If-Match or the body's version field.",
  429: 'Rate limited: try again after Retry-After seconds.',
  500: 'Unexpected failure.',
  503: 'The database is unreachable, or maintenance mode is on.',
  507: 'The server is out of storage.',
};

/** Fastify's `/users/:id` as OpenAPI's `/users/{id}`, and the parameter names in order. */
function openApiPath(url: string) {
  const names: string[] = [];
  const path = url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

const rule = (r: { max: number; windowMs: number }) => `${r.max} per ${r.windowMs / 1000} s`;

/** Who may call the route, in words and as `x-canopy-*` extensions. */
function accessOf(route: DeclaredRoute): { text: string; ext: Json } {
  const { access } = route;
  const ext: Json = { 'x-canopy-access': typeof access === 'object' ? 'admin' : access };
  const lines: string[] = [];
  if (access === 'public') lines.push('Public: no session needed.');
  else if (access === 'user') lines.push('Any signed-in user.');
  else if (access === 'superAdmin') lines.push('Super admins only.');
  else {
    ext['x-canopy-admin-permission'] = access.admin;
    lines.push(`Admins holding the \`${access.admin}\` permission.`);
  }
  if (route.server) {
    ext['x-canopy-server-permission'] = route.server;
    lines.push(`On the caller's own server (\`{id}\` is the caller's user id), needing \`${route.server}\`.`);
  }
  const { perIp, perAccount, perCallerShared } = route.rateLimit;
  const limits: string[] = [];
  if (perIp) limits.push(`${rule(perIp)} per client IP`);
  if (perAccount) limits.push(`${rule(perAccount.rule)} per ${perAccount.key === 'caller' ? 'user' : 'token'}`);
  if (perCallerShared) limits.push(`${rule(perCallerShared)} per user, shared with related writes`);
  if (limits.length) {
    ext['x-canopy-rate-limits'] = route.rateLimit;
    lines.push(`Rate limits: ${limits.join('; ')}.`);
  }
  return { text: lines.join(' '), ext };
}

/** The error statuses the route chain (route.ts) and the error handler (app.ts) can answer for this route. */
function errorStatuses(route: DeclaredRoute, hasParams: boolean): number[] {
  const takesBody = route.body !== undefined || route.rawBody;
  const statuses = new Set([500, 503]);
  if (takesBody || route.query || hasParams) statuses.add(400);
  if (route.access !== 'public') statuses.add(401).add(403);
  if (hasParams) statuses.add(404);
  if (takesBody) statuses.add(413);
  if (route.rateLimit.perIp || route.rateLimit.perAccount || route.rateLimit.perCallerShared) statuses.add(429);
  if (route.server && route.method !== 'GET') statuses.add(409).add(507);
  if (route.ifMatch) statuses.add(400).add(409).add(412).add(428);
  if (honoursIdempotencyKey(route)) statuses.add(400).add(409).add(422);
  return [...statuses].sort();
}

/** The answers of one operation: its success with the contract's schema where there is one, then its errors. */
function responsesOf(route: DeclaredRoute, convert: SchemaConverter, hasParams: boolean): Json {
  const { response } = route;
  let success: Json;
  if (!response)
    success = {
      description: 'Success. Its shape is a TypeScript type of the contract, not yet a zod schema.',
      content: { 'application/json': {} },
    };
  else if ('mediaType' in response) success = { description: 'Success.', content: { [response.mediaType]: {} } };
  else
    success = {
      description: 'Success.',
      content: { 'application/json': { schema: convert.convert(response, 'output') } },
    };
  const out: Json = { [String(route.status)]: success };
  for (const status of errorStatuses(route, hasParams))
    out[String(status)] = { $ref: `#/components/responses/E${status}` };
  return out;
}

/** The request headers the route honours: If-Match on a conditional write, Idempotency-Key on a signed-in write. */
function headerParameters(route: DeclaredRoute): Json[] {
  const headers: Json[] = [];
  if (route.ifMatch)
    headers.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'The ETag of the GET the change was made on (one strong entity tag, `"12"`); where the body has a `version` ' +
        'field, either may name it (both must then agree). Refused with 409 when what is stored changed since (ADR 0035).',
      schema: { type: 'string' },
    });
  if (honoursIdempotencyKey(route))
    headers.push({
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      required: false,
      description:
        'One key per action, the same across its retries: a repeat of the same request gets the stored answer ' +
        `(with \`${IDEMPOTENT_REPLAY_HEADER}: true\`) and acts once; the key with another request is refused (422); a ` +
        `repeat while the first runs gets 409 with Retry-After. Kept for ${IDEMPOTENCY_TTL_MS / 3_600_000} hours per user.`,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[!-~]+$' },
    });
  return headers;
}

/** Query parameters from an object schema, one per property. */
function queryParameters(route: DeclaredRoute, convert: SchemaConverter): Json[] {
  if (!route.query) return [];
  const json = convert.convert(route.query, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Record<string, Json>) ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
}

function operationOf(route: DeclaredRoute, convert: SchemaConverter): { path: string; operation: Json } {
  const { path, names } = openApiPath(route.url);
  const access = accessOf(route);
  const segments = path.split('/').filter(Boolean);
  const operation: Json = {
    operationId: `${route.method.toLowerCase()}${segments.map((s) => `_${s.replace(/[^A-Za-z0-9]/g, '')}`).join('')}`,
    tags: [path.startsWith('/users/{id}/server') ? 'server' : (segments[0] ?? 'root')],
    summary: route.summary ?? `${route.method} ${path}`,
    description: access.text,
    ...access.ext,
    security: route.access === 'public' ? [] : [{ session: [] }],
    parameters: [
      ...names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(route, convert),
      ...headerParameters(route),
    ],
    responses: responsesOf(route, convert, names.length > 0),
  };
  if (route.body || route.rawBody)
    operation.requestBody = {
      required: true,
      description: `JSON, at most ${route.bodyLimit} bytes.`,
      content: { 'application/json': { schema: route.body ? convert.convert(route.body, 'input') : {} } },
    };
  return { path, operation };
}

/** The OpenAPI 3.1 document of the declared routes (ADR 0046). */
export function buildOpenApiDocument(routes: readonly DeclaredRoute[], version: string): Json {
  const convert = new SchemaConverter();
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const { path, operation } = operationOf(route, convert);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  const error = convert.convert(errorBodySchema, 'output');
  const responses = Object.fromEntries(
    Object.entries(errorTexts).map(([status, text]) => [
      `E${status}`,
      { description: text, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
  const excluded = excludedRoutes.map((e) => `- ${e.methods?.join(', ') ?? 'any method'} ${e.paths}: ${e.reason}`);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Canopy API',
      version,
      description: [
        'The api of the Canopy panel, generated from the zod contract (packages/contract) and the route table.',
        'Errors answer `{ error, code }`: `error` is the text to show, `code` a stable id to branch on.',
        webSocketNote,
        'Served by the api but not described here:',
        ...excluded,
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'The session token that POST /auth/login and POST /auth/refresh answer.',
        },
      },
      schemas: { Error: error, ...convert.components },
      responses,
    },
  };
}
