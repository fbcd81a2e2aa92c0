import { type Profile, serverPageMessages } from '@canopy/contract';
import { hasServer } from '../../lib/owned-server.ts';

/** Why the Collaborators page shows a reason instead of the form: collaborators and users without a server. */
export function collaboratorsPageBlock(profile: Pick<Profile, 'isCollaborator' | 'serverOwned'>): string | null {
  // A collaborator's serverOwned names the server they help on, so this check comes first.
  if (profile.isCollaborator) return serverPageMessages.onlyOwnerCollaborators;
  if (!hasServer(profile.serverOwned)) return serverPageMessages.needServerForCollaborators;
  return null;
}
