import { type AddCollaboratorRequest, messageResponseSchema, serverPageMessages } from '@canopy/contract';
import { api } from '../../../lib/api-client.ts';
import { useCollaboratorMutation } from './collaborator-mutation.ts';
import { collaboratorsPath } from './keys.ts';

/** POST /users/{id}/server/collaborators: invites a user by Discord ID with the given permissions. */
export function addCollaborator(userId: string, body: AddCollaboratorRequest) {
  return api.post(collaboratorsPath(userId), body, {
    schema: messageResponseSchema,
    defaultError: () => serverPageMessages.addCollaboratorFailed,
  });
}

/** Adding as a mutation with its toasts. */
export function useAddCollaborator(userId: string) {
  return useCollaboratorMutation(userId, (body: AddCollaboratorRequest) => addCollaborator(userId, body));
}
