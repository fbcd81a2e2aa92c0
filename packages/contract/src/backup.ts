import { z } from 'zod';

/** Texts of the Backup Manager (server-management document, sections 2, 6 and 8). */
export const backupMessages = {
  title: 'Backup Manager',
  created: 'Backup created successfully!',
  restored: 'Restore complete. Please restart your server from the dashboard.',
  /** Our words: a collaborator without server:actions cannot start the server the restore stopped. */
  restoredAskOwner:
    'Restore complete. The server stays stopped until the owner, or a collaborator allowed to start it, starts it from the dashboard.',
  deleted: 'Backup deleted successfully.',
  fetchFailed: 'Failed to fetch backup status.',
  createFailed: 'Failed to create backup.',
  restoreFailed: 'Failed to restore backup.',
  deleteFailed: 'Failed to delete backup.',
  found: 'Backup Found',
  none: 'No Backup Found',
  noServer: 'No Server Found',
  noServerHint: 'You need a server to create or restore a backup.',
  goToDashboard: 'Go to Dashboard',
  create: 'Create Backup',
  restore: 'Restore from Backup',
  delete: 'Delete Backup',
  restoreConfirmTitle: 'Restore from Backup?',
  restoreConfirm:
    "Your server will be stopped and its database (players, worlds and so on) replaced by the backup's. This cannot be undone.",
  deleteConfirmTitle: 'Delete Backup?',
  deleteConfirm: 'The backup will be deleted permanently. This cannot be undone.',
  noneHint: 'Create a backup of your server database to restore it later.',
  tip: 'Backups are tied to your account, not to your server: you can restore one into a new server. A backup holds only the database (players, worlds and so on), and the server software updates to the latest version on a new server.',
  // Refusals of the api (not shown in the spec; worded after its "delete first" rule).
  alreadyExists: 'A backup already exists. Delete the existing backup first to create a new one.',
  notFound: 'No backup found for this account.',
  busy: 'Another backup action is in progress. Please try again in a moment.',
  noDatabase: 'Your server has no database yet. Start it once before creating a backup.',
  serverBusy: 'Your server is starting or stopping. Please try again once it is online or offline.',
  damagedChecksum: 'The backup file is damaged (checksum mismatch); it cannot be restored.',
  damagedIntegrity: 'The backup file is damaged (integrity check failed); it cannot be restored.',
  missingFile: 'The backup file is missing; it cannot be restored.',
  /** Our words: the S3-compatible backup store did not answer or refused the transfer (ADR 0037). */
  storeUnavailable: 'The backup storage cannot be reached right now; nothing was changed. Please try again later.',
  createdNotValid: 'The snapshot of your database did not pass verification; no backup was kept. Please try again.',
} as const;

/** GET /users/{id}/server/backup: the spec's {exists, createdAt}, plus the file's size for the page. */
export const backupStatusSchema = z.object({
  exists: z.boolean(),
  /** ISO 8601, or null when there is no backup. */
  createdAt: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;
