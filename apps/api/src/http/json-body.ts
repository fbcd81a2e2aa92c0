import { AppError } from '../errors.ts';

/**
 * Deepest nesting of arrays and objects a request body may have. The deepest legitimate body, a custom
 * item list (`{"items":[{"Extra_Drops":[[id,count]]}]}`), has 4 levels; 32 leaves room for any future one.
 * A 10 KB body of 5,000 nested arrays overflowed the stack of a recursive walk (the admin api's NUL check)
 * and answered 500 (issue 21): no code that walks a body needs to think about depth with this in front.
 */
export const MAX_JSON_DEPTH = 32;

export const jsonBodyMessages = {
  tooDeep: `Request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects are accepted.`,
  invalid: 'Request body is not valid JSON.',
} as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, read from its UTF-8 bytes before anything
 * parses it (a byte of a multi-byte character is never below 0x80, so no bracket or quote is missed).
 * Brackets inside strings do not count. Malformed JSON is JSON.parse's to refuse.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** A request body's JSON, refused with a 400 when it nests deeper than MAX_JSON_DEPTH or is not JSON. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw new AppError(400, 'body_too_deep', jsonBodyMessages.tooDeep);
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw new AppError(400, 'invalid_json', jsonBodyMessages.invalid);
  }
}
