import { z } from 'zod';
import { serverStatusSchema } from './server.ts';

/** Messages the api pushes on /ws/{userId}: a discriminated union validated on both ends. */
export const serverSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('status_update'),
    payload: z.object({ name: z.string(), status: serverStatusSchema, players: z.number().int() }),
  }),
  z.object({ type: z.literal('console_history'), payload: z.object({ lines: z.array(z.string()) }) }),
  z.object({ type: z.literal('console_log'), payload: z.object({ line: z.string() }) }),
  // Our addition: lines that arrived together travel in one frame, so a chatty server does not cost
  // a frame per line per browser. Appends like console_log.
  z.object({ type: z.literal('console_batch'), payload: z.object({ lines: z.array(z.string()) }) }),
  z.object({ type: z.literal('error'), payload: z.object({ message: z.string() }) }),
]);
export type ServerSocketMessage = z.infer<typeof serverSocketMessageSchema>;

/** Longest console command the api accepts. */
export const CONSOLE_COMMAND_MAX = 500;

/** Messages the browser sends on /ws/{userId}. */
export const clientSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('console_command'),
    payload: z.object({
      command: z
        .string()
        .trim()
        .min(1, 'Command cannot be empty.')
        .max(CONSOLE_COMMAND_MAX)
        // One message is one command: a line break would smuggle more past the rate limit.
        .regex(/^[^\r\n\0]*$/, 'A command must be a single line.'),
    }),
  }),
  z.object({ type: z.literal('console_subscribe'), payload: z.object({}).optional() }),
  z.object({ type: z.literal('console_unsubscribe'), payload: z.object({}).optional() }),
]);
export type ClientSocketMessage = z.infer<typeof clientSocketMessageSchema>;

/** WebSocket close codes the panel gives meaning to (panel document, section 4). */
export const socketCloseCodes = {
  normal: 1000,
  policyViolation: 1008,
  internalError: 1011,
} as const;
