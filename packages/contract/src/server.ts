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
