import { type CollaboratorPermission, messageResponseSchema, serverPageMessages } from '@canopy/contract';
import { api } from '../../../lib/api-client.ts';
import { collaboratorPath, useCollaboratorMutation } from './collaborator-mutation.ts';

interface UpdateVariables {
  discordId: string;
  permissions: CollaboratorPermission[];
}

/** PUT /users/{id}/server/collaborators/{discordId}: replaces a collaborator's permissions. */
export function updateCollaborator(userId: string, { discordId, permissions }: UpdateVariables) {
  return api.request(collaboratorPath(userId, discordId), {
    method: 'PUT',
    body: { permissions },
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.updateCollaboratorFailed,
  });
}

/** Updating as a mutation with its toasts. */
export function useUpdateCollaborator(userId: string) {
  return useCollaboratorMutation(userId, (variables: UpdateVariables) => updateCollaborator(userId, variables));
}
