/** Query key of the account's backup status. */
export const backupKey = (userId: string) => ['backup', userId] as const;

/** The path of the backup of the account behind the server the user owns or collaborates on. */
export const backupPath = (userId: string) => `/users/${encodeURIComponent(userId)}/server/backup`;
