import { z } from 'zod';
import { serverStatusSchema } from './server.ts';

/**
 * Why the api refused something on the socket; the page shows the message and branches on the code.
 * - console_denied: the console is closed to this user now (console:use revoked, banned, no server,
 *   maintenance); the page replaces the console with the message and disables the command line.
 * - forbidden: this one command needs a permission the user lacks (e.g. stop without server:actions).
 * - rate_limited, conflict (server offline or busy), invalid (a malformed message), failed (our fault).
 */
export const socketErrorCodes = [
  'console_denied',
  'forbidden',
  'rate_limited',
  'conflict',
  'invalid',
  'failed',
] as const;
/** The code of an `error` message. */
export type SocketErrorCode = (typeof socketErrorCodes)[number];

/** Messages the api pushes on /ws/{userId}: a discriminated union validated on both ends. */
export const serverSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('status_update'),
    payload: z.object({ name: z.string(), status: serverStatusSchema, players: z.number().int() }),
  }),
  z.object({ type: z.literal('console_history'), payload: z.object({ lines: z.array(z.string()) }) }),
  z.object({ type: z.literal('console_log'), payload: z.object({ line: z.string() }) }),
  // Our addition: lines that arrived together travel in one frame, so a chatty server does not cost
  // a frame per line per browser. Appends like console_log. Sent only to a socket that asked for it
  // (SOCKET_BATCH_PARAM=1 on its address); a client written to the spec gets one console_log per line.
  z.object({ type: z.literal('console_batch'), payload: z.object({ lines: z.array(z.string()) }) }),
  // Our addition: the scheduler or the crash-loop guard changed what the profile says about the server
  // (time ran out, grace over and deleted, left offline after crashes); the page refetches profile and status.
  z.object({
    type: z.literal('server_notice'),
    payload: z.object({ name: z.string(), kind: z.enum(['expired', 'deleted', 'crash_loop']) }),
  }),
  // Our addition: an admin banned or unbanned this user; the page refetches the profile, which locks or
  // unlocks the panel at once (admin-bans.ts, ADR 0020).
  z.object({ type: z.literal('account_notice'), payload: z.object({ kind: z.enum(['banned', 'unbanned']) }) }),
  z.object({
    type: z.literal('error'),
    payload: z.object({
      message: z.string(),
      code: z.enum(socketErrorCodes),
      // Our addition: the refusal of one console_command names it (as the activity log shows it: secrets
      // masked), so the issuing browser writes '> command' and the reason into its own console view.
      command: z.string().optional(),
    }),
  }),
]);
export type ServerSocketMessage = z.infer<typeof serverSocketMessageSchema>;

/** The query parameter (`?…&batch=1` on /ws/{userId}) by which a socket asks for console_batch frames. */
export const SOCKET_BATCH_PARAM = 'batch';

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
  /** The api replica is restarting (a rolling update): reconnect at once, another replica answers. */
  serviceRestart: 1012,
  /** The api is at its connection capacity: retry later, slowly. */
  tryAgainLater: 1013,
  /** This user already has MAX_SOCKETS_PER_USER sockets open (close a tab, or wait). */
  tooManyConnections: 4029,
} as const;

/** Close reasons sent with the codes above. */
export const socketCloseReasons = {
  tooManyConnections: 'Too many connections',
  tryAgainLater: 'Server busy, try again later',
  handshakeTimeout: 'Authentication timed out',
  databaseUnavailable: 'Service temporarily unavailable',
  serviceRestart: 'Service restart',
} as const;
