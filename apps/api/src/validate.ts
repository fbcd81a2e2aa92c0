import type { z } from 'zod';
import { badRequest } from './errors.ts';

/** Parses input with a contract schema; the first problem becomes a 400 with a precise message. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): z.infer<S> {
  if (input === undefined || input === null) throw badRequest(`${what} is required.`);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest(`${what} is invalid.`);
  if (issue.path.length === 0 && issue.code === 'invalid_type') throw badRequest(`${what} must be a JSON object.`);
  // Our schemas carry user-facing messages; zod's generic ones get the field name in front.
  const field = issue.path.join('.');
  if (field && issue.code === 'invalid_type' && /received undefined/.test(issue.message))
    throw badRequest(`${field} is required.`);
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Too ');
  throw badRequest(generic && field ? `${field}: ${issue.message}` : issue.message);
}
