import { CreatorListCard } from './creator-list-card.tsx';
import { ServerSettingsCard } from './server-settings-card.tsx';

/** General: the creator list and the server settings (autofarm delay), side by side on wide screens. */
export function GeneralTab({ userId }: { userId: string }) {
  return (
    <div className="grid items-start gap-6 xl:grid-cols-2">
      <CreatorListCard userId={userId} />
      <ServerSettingsCard userId={userId} />
    </div>
  );
}
