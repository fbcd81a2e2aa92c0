import { z } from 'zod';
import { collaboratorPermissions } from './permissions.ts';

/** Texts of the server-management pages (server-management document, sections 4 to 8). */
export const serverPageMessages = {
  noPermission: 'You do not have permission to access this feature.',
  noPermissionWorlds: 'You do not have permission to manage worlds.',
  noPermissionPlayers: 'You do not have permission to manage players.',
  noPermissionConsole: 'You do not have permission to use the console.',
  bannedWorlds: 'Your account is banned. You cannot manage worlds.',
  bannedPlayers: 'Your account is banned. You cannot manage players.',
  bannedConsole: 'Your account is banned. You cannot use the console.',
  bannedBackups: 'Your account is banned. You cannot manage backups.',
  bannedConfiguration: 'Your account is banned. You cannot change the configuration.',
  /** Our words: a ban of the owner covers their server, so a collaborator's write is refused too. */
  ownerBanned: 'The owner of this server is banned, so it cannot be changed.',
  noServer: 'You need a server to use this feature.',
  consoleNoServer: 'You need a server to use the console.',
  consoleOffline: 'The server is offline. Start it from the dashboard to use the console.',
  consoleStopping: 'The server is shutting down.',
  consoleUnknown: 'The server status is unknown.',
  worldsOffline: 'Your server is offline. Please start it from the dashboard to manage worlds.',
  playersOffline: 'Your server is offline. Please start it from the dashboard to manage players.',
  serverStarting: 'Your server is starting up. This page will be available once it is online.',
  serverStopping: 'Your server is shutting down.',
  worldNotFound: 'World not found.',
  playerNotFound: 'Player not found.',
  invalidJson: 'Invalid JSON format.',
  cannotSaveInvalidJson: 'Cannot save, JSON is invalid.',
  commandRateLimited: 'Too many commands. Please slow down.',
  linesDropped: (n: number) => `[console] ${n} line(s) skipped because the connection could not keep up.`,
  onlyOwnerCollaborators: 'Only the server owner can manage collaborators.',
  needServerForCollaborators: 'You need a server to add collaborators.',
  invalidCollaborator: 'Please enter a valid and eligible Discord ID.',
  collaboratorAdded: 'Collaborator added successfully.',
  collaboratorUpdated: 'Collaborator updated successfully.',
  collaboratorRemoved: 'Collaborator removed successfully.',
  collaboratorNotFound: 'That user is not a collaborator on this server.',
  fetchCollaboratorsFailed: 'Failed to fetch collaborators.',
  requestFailedStatus: (status: number) => `Request failed with status ${status}`,
  addCollaboratorFailed: 'Failed to add collaborator.',
  updateCollaboratorFailed: 'Failed to update collaborator.',
  removeCollaboratorFailed: 'Failed to remove collaborator.',
  validationUnknown: 'An unknown validation error occurred.',
  validationFailed: 'An error occurred during validation.',
  panelUrlCopied: 'Panel URL copied to clipboard!',
  panelUrlCopyFailed: 'Failed to copy URL.',
  worldSaved: 'World saved.',
  worldDeleted: 'World deleted.',
  playerSaved: 'Player saved.',
  playerBanned: 'Player banned.',
  /** Not in the spec, which has no unban on this page; worded like playerBanned. */
  playerUnbanned: 'Player unbanned.',
  fetchWorldsFailed: (status: number) => `Failed to fetch worlds: ${status}`,
  fetchWorldFailed: 'Failed to fetch world data.',
  saveWorldFailed: 'Failed to save world data.',
  deleteWorldFailed: 'Failed to delete world',
  fetchPlayersFailed: (status: number) => `Failed to fetch players: ${status}`,
  fetchPlayerFailed: 'Failed to fetch player data.',
  savePlayerFailed: 'Failed to save player data.',
  banPlayerFailed: 'Failed to ban player',
  unbanPlayerFailed: 'Failed to unban player',
  fetchItemDatabaseFailed: 'Failed to fetch item database.',
  noPlayers: 'No players found on this server.',
  noPlayersMatch: 'No players match your filters.',
  noWorlds: 'No worlds found on this server.',
  noWorldsMatch: 'No worlds match your search.',
} as const;

/** A Discord id: a snowflake of 17 to 20 digits. */
export const discordIdSchema = z.string().regex(/^\d{17,20}$/, 'A Discord ID is 17 to 20 digits.');

export const collaboratorPermissionSchema = z.enum(collaboratorPermissions);

/** The permissions granted to one collaborator (no duplicates, at least one). */
export const collaboratorPermissionsSchema = z
  .array(collaboratorPermissionSchema)
  .min(1, 'Choose at least one permission.')
  .transform((list) => [...new Set(list)]);

/** Body of POST /users/{id}/server/collaborators. */
export const addCollaboratorRequestSchema = z.object({
  discordId: discordIdSchema,
  permissions: collaboratorPermissionsSchema,
});
export type AddCollaboratorRequest = z.infer<typeof addCollaboratorRequestSchema>;

/** Body of PUT /users/{id}/server/collaborators/{discordId}. */
export const updateCollaboratorRequestSchema = z.object({ permissions: collaboratorPermissionsSchema });
export type UpdateCollaboratorRequest = z.infer<typeof updateCollaboratorRequestSchema>;

/** A row of GET /users/{id}/server/collaborators. */
export const collaboratorSchema = z.object({
  DiscordID: z.string(),
  DiscordUsername: z.string(),
  GrowID: z.string().nullable(),
  Permissions: z.array(z.string()),
  addedAt: z.string(),
});
export type Collaborator = z.infer<typeof collaboratorSchema>;
/** GET /users/{id}/server/collaborators answers a bare list. */
export const collaboratorListSchema = z.array(collaboratorSchema);

/** An entry of GET /all-items. */
export const itemNameSchema = z.object({ item_id: z.int(), name: z.string() });
export const allItemsResponseSchema = z.object({ items: z.array(itemNameSchema) });

/** States of the live Discord-id check on the Collaborators page. */
export const collaboratorValidationStatusSchema = z.enum(['valid', 'not_found', 'conflict', 'invalid_id']);

/** Answer of GET /users/{id}/server/collaborators/validate/{discordId}. */
export const collaboratorValidationSchema = z.object({
  status: collaboratorValidationStatusSchema,
  message: z.string(),
  user: z.object({ DiscordUsername: z.string(), GrowID: z.string().nullable() }).nullable(),
});
export type CollaboratorValidation = z.infer<typeof collaboratorValidationSchema>;

/** A plain `{message}` answer. */
export const messageResponseSchema = z.object({ message: z.string() });
