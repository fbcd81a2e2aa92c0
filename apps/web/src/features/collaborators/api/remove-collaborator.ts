import { messageResponseSchema, serverPageMessages } from '@canopy/contract';
import { api } from '../../../lib/api-client.ts';
import { collaboratorPath, useCollaboratorMutation } from './collaborator-mutation.ts';

/** DELETE /users/{id}/server/collaborators/{discordId}: removes a collaborator. */
export function removeCollaborator(userId: string, discordId: string) {
  return api.delete(collaboratorPath(userId, discordId), {
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.removeCollaboratorFailed,
  });
}

/** Removing as a mutation with its toasts. */
export function useRemoveCollaborator(userId: string) {
  return useCollaboratorMutation(userId, (discordId: string) => removeCollaborator(userId, discordId));
}
