import { z } from 'zod';
import { SERVER_NAME_MAX, SERVER_NAME_MIN } from './constants.ts';
import { serverStatusSchema } from './server.ts';

/** Texts of server creation, deletion and power actions (panel document, sections 5 and 8). */
export const hostingMessages = {
  serverNameRequired: 'Server name is required.',
  serverNameLength: `Name must be between ${SERVER_NAME_MIN} and ${SERVER_NAME_MAX} characters.`,
  serverNameChars: 'Name can only contain letters, numbers, underscores, and hyphens.',
  serverNameTaken: 'This server name is already taken.',
  serverNameBanned: 'This server name is not allowed.',
  alreadyOwnsServer: 'You already own a server. Each user may own one server.',
  noSlots: 'You have no available server slots.',
  collaboratorCannotCreate: 'Collaborators cannot create a server. Ask the owner to remove you first.',
  creationDisabled: 'Server creation is currently disabled by an administrator.',
  actionsDisabled: 'Server actions are currently disabled by an administrator.',
  bannedActions: 'Your account is banned and cannot perform server actions.',
  storageFull: 'Storage limit exceeded. Cannot start server.',
  // Not in the spec, which blocks only start: the same refusal for writes that would grow the data.
  storageFullWrite: 'Storage limit exceeded. Cannot save changes.',
  // The host's disk (not the account's limit) is full: nothing was saved.
  diskFull: 'The host is out of disk space, so the change was not saved. Please try again later.',
  /** A running engine that does not answer the api within its call's timeout (frozen or overloaded): a 504. */
  engineTimeout: 'The server did not answer in time. Try again, or restart it.',
  onlyOwnerDelete: 'Only the server owner can delete the server.',
  noActionPermission: 'You do not have permission to perform server actions.',
  noServer: 'You do not have a server.',
  serverNotFound: 'Server not found.',
  actionInProgress: 'Another action is already in progress for this server. Please wait for it to finish.',
  alreadyRunning: 'The server is already running.',
  notRunning: 'The server is not running.',
  serverTimeExpired: 'Your server time has run out. Renew it to start the server.',
  serverTimeOverCreate: 'Your server time has run out. Renew it or redeem a server time code to create a server.',
  // Not in the spec: a failed status fetch says nothing about the engine, so the panel does not guess.
  statusUnknown: 'The server status could not be loaded, so the power buttons are disabled. Retry to load it.',
  crashLoop: 'Your server crashed twice within a minute, so it was left offline. Start it again to retry.',
  startFailed: 'The server failed to start. Check the console for details.',
  actionStarted: (status: string, name: string) => `${status} server "${name}"...`,
  actionSucceeded: (action: string) => `Server action '${action}' initiated successfully.`,
  actionFailed: (statusText: string) => `Server action failed: ${statusText}`,
  created: (name: string) => `Server "${name}" created successfully.`,
  createFailed: (statusText: string) => `Failed to create server: ${statusText}`,
  deleted: 'Server deleted successfully.',
  deleteFailed: (statusText: string) => `Failed to delete server: ${statusText}`,
  fetchFailed: (statusText: string) => `Failed to fetch server data: ${statusText}`,
  connectionLost: 'Connection to server lost. Attempting to reconnect...',
  reconnected: 'WebSocket reconnected successfully.',
} as const;

/** A server name: 3 to 20 letters, digits, underscores or hyphens. */
export const serverNameSchema = z
  .string({ error: hostingMessages.serverNameRequired })
  .trim()
  .min(1, hostingMessages.serverNameRequired)
  .min(SERVER_NAME_MIN, hostingMessages.serverNameLength)
  .max(SERVER_NAME_MAX, hostingMessages.serverNameLength)
  .regex(/^[A-Za-z0-9_-]+$/, hostingMessages.serverNameChars);

/** Body of POST /users/{id}/server. */
export const createServerRequestSchema = z.object({ serverName: serverNameSchema });
export type CreateServerRequest = z.infer<typeof createServerRequestSchema>;

/** The three power actions of POST /users/{id}/server/{serverId}/{action}. */
export const powerActionSchema = z.enum(['start', 'stop', 'restart']);
export type PowerAction = z.infer<typeof powerActionSchema>;

/** Answer of a create, delete or power action. */
export const serverActionResponseSchema = z.object({
  message: z.string(),
  server: z.object({ id: z.string(), name: z.string(), status: serverStatusSchema }).optional(),
});
export type ServerActionResponse = z.infer<typeof serverActionResponseSchema>;

/** Who did something recorded in the activity log. */
export const actorTypeSchema = z.enum(['Admin', 'User', 'System']);
export type ActorType = z.infer<typeof actorTypeSchema>;

/** A row of the activity log (admin document). */
export const activityLogSchema = z.object({
  timestamp: z.string(),
  action: z.string(),
  actorType: actorTypeSchema,
  actorName: z.string(),
  details: z.string(),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;
