import { backupMessages, messageResponseSchema } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { api } from '../../../lib/api-client.ts';
import { profileQueryKey } from '../../../lib/profile-query.ts';
import { backupKey, backupPath } from './keys.ts';

/** POST /users/{id}/server/backup. */
export function createBackup(userId: string) {
  return api.post(backupPath(userId), undefined, {
    schema: messageResponseSchema,
    defaultError: () => backupMessages.createFailed,
  });
}

/** POST /users/{id}/server/backup/restore. */
export function restoreBackup(userId: string) {
  return api.post(`${backupPath(userId)}/restore`, undefined, {
    schema: messageResponseSchema,
    defaultError: () => backupMessages.restoreFailed,
  });
}

/** DELETE /users/{id}/server/backup. */
export function deleteBackup(userId: string) {
  return api.delete(backupPath(userId), {
    schema: messageResponseSchema,
    defaultError: () => backupMessages.deleteFailed,
  });
}

/**
 * One backup action with the api's message (or its error) as a toast; the status and the profile (its
 * storage figure counts the backup) are fetched again either way.
 */
export function useBackupAction(userId: string, action: (userId: string) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => action(userId),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: backupKey(userId) });
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) });
    },
  });
}
