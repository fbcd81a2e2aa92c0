import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler } from 'fastify';
import { AppError, badRequest } from '../errors.ts';
import { DEFAULT_BODY_LIMIT, formatBytes } from './body-limits.ts';

// C0 controls and DEL: no id or name in a path has them, and PostgreSQL refuses NUL in text outright.
function hasControlCharacter(value: string) {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * onRequest hook for every route: a path parameter holding a control character is a 400, before any work.
 * Callback style, not async: it never waits, and an async hook costs every request a promise and a
 * microtask turn.
 */
export function rejectControlCharacters(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  const params = req.params as Record<string, unknown> | undefined;
  for (const name in params) {
    const value = params[name];
    if (typeof value === 'string' && hasControlCharacter(value))
      return done(badRequest('The address contains a control character.', 'invalid_path'));
  }
  done();
}

/** Fastify's body-too-large error as the app's own, stating the route's limit. */
export function bodyTooLarge(error: FastifyError, req: FastifyRequest): AppError | undefined {
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return undefined;
  const limit = req.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT;
  return new AppError(
    413,
    'body_too_large',
    `The request body is too large: this request accepts at most ${formatBytes(limit)}.`,
  );
}

/**
 * An answer sent before the request's body was read (a refusal from the route chain) closes the
 * connection. Otherwise Node reads and discards the rest of the body to keep the connection alive, and a
 * refused caller could make the api swallow an upload of any size.
 */
export function closeOnUnreadBody(req: FastifyRequest, reply: FastifyReply) {
  const expectsBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  if (expectsBody && !req.raw.complete) reply.header('connection', 'close');
}

/**
 * `Server-Timing: app;dur=<ms>`: how long the api worked on the request, from its arrival to the answer
 * (browsers show it in their network panel; bench scripts read it to tell the api's time from the
 * client's). The whole request's duration is visible to the caller anyway, so it reveals nothing new.
 */
export function serverTiming(_req: FastifyRequest, reply: FastifyReply) {
  reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(3)}`);
}

/**
 * onSend hook for every route: closeOnUnreadBody, then serverTiming. One synchronous hook rather than two
 * async ones: neither waits, and each async hook costs every request a promise and a microtask turn.
 */
export const answerHeaders: onSendHookHandler = (req, reply, payload, done) => {
  closeOnUnreadBody(req, reply);
  serverTiming(req, reply);
  done(null, payload);
};
