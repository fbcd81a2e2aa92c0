import { badRequest } from '../errors.ts';
import { route } from '../http/route.ts';

/**
 * Where `value` holds U+0000, as a field path ('search', 'banInfo.reason', 'userIds[2]'), or undefined.
 * PostgreSQL refuses NUL in text (the call failed with a 500) and SQLite's LIKE reads a pattern only up to
 * it (a search for it matched every row); no admin field has a use for it.
 */
export function nulPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (Buffer.isBuffer(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  return undefined;
}

/** A 400 naming the first field of the query or body holding a NUL character. */
export function refuseNul(query: unknown, body: unknown) {
  for (const [value, what] of [
    [query, 'The query'],
    [body, 'The request body'],
  ] as const) {
    const at = nulPath(value);
    if (at !== undefined)
      throw badRequest(`${at === '' ? what : at} must not contain a NUL character (U+0000).`, 'nul_character');
  }
}

/**
 * `route` for the admin api: the same chain, and a query or body holding a NUL character is refused with
 * a 400 before the handler (path parameters are refused for every route by rejectControlCharacters).
 */
export const adminRoute: typeof route = (app, ctx, spec) =>
  route(app, ctx, {
    ...spec,
    handler: (input) => {
      refuseNul(input.req.query, input.req.body);
      return spec.handler(input);
    },
  });
