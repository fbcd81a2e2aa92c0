import { requestIssueMessage, safeParseFirst } from '@canopy/contract';
import type { z } from 'zod';
import { badRequest } from './errors.ts';

/** Parses input with a contract schema, stopping at the first problem, which becomes a 400 with a precise message. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): z.infer<S> {
  if (input === undefined || input === null) throw badRequest(`${what} is required.`);
  const result = safeParseFirst(schema, input);
  if (result.success) return result.data;
  throw badRequest(requestIssueMessage(result.error, what));
}
