import type { z } from 'zod';

/**
 * Parse options that stop at the first problem. zod otherwise checks every field of every list item, and
 * a hostile body (1,000 custom items, every field of the wrong type) collected some 60,000 issues in hundreds
 * of milliseconds for the one sentence we answer with. `abortEarly` is what zod's own `validate` passes; its
 * public ParseContext type leaves it out, so packages/contract/test/validation-cost.test.ts fails if a zod
 * update stops honouring it.
 */
export const FIRST_ISSUE = { abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>;

/** `schema.safeParse(input)` that stops at the first problem (see FIRST_ISSUE): the way the api and engine parse. */
export function safeParseFirst<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(input, FIRST_ISSUE);
}

/** How a value of each type zod expects is named in a message: 'isPublic must be true or false.' */
const typeWords: Record<string, string> = {
  boolean: 'true or false',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  array: 'a list',
  object: 'an object',
  date: 'a date',
};

/**
 * zod's own wording of the issues every schema can raise ('Invalid input: expected boolean, received string',
 * 'Unrecognized key: "extra"', 'Too big: …') in ours, naming the field; undefined when the schema gave its own message or the
 * issue is of another kind. One place, so every route and the engine answer alike (issue 21).
 */
function plainIssueMessage(issue: z.core.$ZodIssue, field: string): string | undefined {
  if (issue.code === 'unrecognized_keys' && issue.message.startsWith('Unrecognized key')) {
    const names = issue.keys.map((key) => `"${[...issue.path.map(String), key].join('.')}"`).join(', ');
    return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${names}.`;
  }
  if (field && (issue.code === 'too_big' || issue.code === 'too_small') && issue.message.startsWith('Too ')) {
    const bound = issue.code === 'too_big' ? `at most ${issue.maximum}` : `at least ${issue.minimum}`;
    if (issue.origin === 'string') return `${field} must be ${bound} characters long.`;
    if (issue.origin === 'array' || issue.origin === 'set') return `${field} must hold ${bound} items.`;
    if (issue.origin === 'number' || issue.origin === 'int') return `${field} must be ${bound}.`;
    return undefined;
  }
  if (!field || !issue.message.startsWith('Invalid')) return undefined;
  if (issue.code === 'invalid_type') {
    const word = typeWords[issue.expected];
    return word ? `${field} must be ${word}.` : undefined;
  }
  if (issue.code === 'invalid_value') {
    const values = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    if (values.length === 1) return `${field} must be ${values[0]}.`;
    return `${field} must be one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}.`;
  }
  return undefined;
}

/**
 * The first problem of a refused request body as the one sentence a user sees; the api and the engine both
 * answer with it, so a body the api hands to the engine unparsed (a whole world) is refused in the same words.
 * Our schemas carry human messages: a top-level field's message stands alone, a nested one gets its place in
 * front (`blocks.5.o: o must be 0 or 1.`); zod's generic ones for a wrong type, a wrong option, a bound or an
 * unknown field are put in our words (plainIssueMessage), any other gets the field name.
 */
export function requestIssueMessage(error: z.ZodError, what = 'Request body'): string {
  const issue = error.issues[0];
  if (!issue) return `${what} is invalid.`;
  if (issue.path.length === 0 && issue.code === 'invalid_type') return `${what} must be a JSON object.`;
  const field = issue.path.map(String).join('.');
  if (field && issue.code === 'invalid_type' && /received undefined/.test(issue.message))
    return `${field} is required.`;
  const plain = plainIssueMessage(issue as z.core.$ZodIssue, field);
  if (plain) return plain;
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Too ');
  return field && (generic || issue.path.length > 1) ? `${field}: ${issue.message}` : issue.message;
}
