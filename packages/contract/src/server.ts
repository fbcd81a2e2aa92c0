import { z } from 'zod';

/** Status of a hosted server; UNKNOWN occurs when the runtime cannot tell. */
export const serverStatusSchema = z.enum(['ONLINE', 'OFFLINE', 'STARTING', 'STOPPING', 'RESTARTING', 'UNKNOWN']);
export type ServerStatus = z.infer<typeof serverStatusSchema>;

export const statusFeedEntrySchema = z.object({
  name: z.string(),
  status: serverStatusSchema,
  players: z.number().int(),
  version: z.string(),
});
export type StatusFeedEntry = z.infer<typeof statusFeedEntrySchema>;

/** Answer of the public GET /status. */
export const statusResponseSchema = z.object({ hostedServers: z.array(statusFeedEntrySchema) });
export type StatusResponse = z.infer<typeof statusResponseSchema>;

/** The profile's serverOwned text of a user without a server. */
export const NO_SERVER = 'No Server';
