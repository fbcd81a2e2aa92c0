import { Card } from '../../../components/ui/index.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { collaboratorsPageBlock } from '../collaborators-access.ts';
import { AddCollaboratorForm } from './add-collaborator-form.tsx';
import { CollaboratorList } from './collaborator-list.tsx';

/** Collaborators (spec section 2): the owner invites users by Discord ID and grants them permissions. */
export function CollaboratorsPage() {
  const { profile } = useRegisteredProfile();
  const blocked = collaboratorsPageBlock(profile);
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">Collaborators</h1>
        <p className="mt-1 text-ink-muted">
          Invite other users by their Discord ID and choose what they may do on your server.
        </p>
      </header>
      {blocked ? (
        <Card>
          <p data-testid="collaborators-blocked" className="text-ink-muted">
            {blocked}
          </p>
        </Card>
      ) : (
        <div className="grid items-start gap-6 xl:grid-cols-2">
          <AddCollaboratorForm userId={profile.id} />
          <CollaboratorList userId={profile.id} />
        </div>
      )}
    </section>
  );
}
