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

/**
 * The first problem of a refused request body as the one sentence a user sees; the api and the engine both
 * answer with it, so a body the api hands to the engine unparsed (a whole world) is refused in the same words.
 * Our schemas carry human messages: a top-level field's message stands alone, a nested one gets its place in
 * front (`blocks.5.o: o must be 0 or 1.`), and zod's generic ones get the field name.
 */
export function requestIssueMessage(error: z.ZodError, what = 'Request body'): string {
  const issue = error.issues[0];
  if (!issue) return `${what} is invalid.`;
  if (issue.path.length === 0 && issue.code === 'invalid_type') return `${what} must be a JSON object.`;
  const field = issue.path.map(String).join('.');
  if (field && issue.code === 'invalid_type' && /received undefined/.test(issue.message))
    return `${field} is required.`;
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Too ');
  return field && (generic || issue.path.length > 1) ? `${field}: ${issue.message}` : issue.message;
}
