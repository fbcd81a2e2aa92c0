import type { z } from 'zod';
import { contract } from './contract.ts';
import { badRequest } from './errors.ts';

/** The first problem of a failed parse as one precise sentence, prefixed with where it is (`blocks.12.o: ...`). */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  const path = issue.path.map(String).join('.');
  const field = issue.path.at(-1);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  // Messages like "email must be ..." already name a top-level field; the others get the path in front.
  const named = issue.path.length === 1 && typeof field === 'string' && issue.message.startsWith(field);
  return `${path && !named ? `${path}: ` : ''}${issue.message}${more}`;
}

/**
 * Parses a request's input with a contract schema, stopping at the first problem (a world of a million wrong
 * tiles is not explained tile by tile); a failure is a 400 in the api's words (the contract's).
 */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): z.infer<S> {
  if (input === undefined) throw badRequest(`${what} is required.`);
  const result = contract().safeParseFirst(schema, input);
  if (result.success) return result.data;
  throw badRequest(contract().requestIssueMessage(result.error, what));
}
