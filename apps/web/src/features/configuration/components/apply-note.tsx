import { useOwnedServer } from '../../../hooks/use-owned-server.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { applyNote } from '../apply-note.ts';

/** The note beside a save that restarts the server: says that a stopped server stays stopped. */
export function ApplyNote() {
  const { profile } = useRegisteredProfile();
  const note = applyNote(useOwnedServer(profile.serverOwned).server?.status);
  if (!note) return null;
  return (
    <p data-testid="config-apply-note" className="text-ink-muted text-sm sm:mr-auto sm:self-center">
      {note}
    </p>
  );
}
