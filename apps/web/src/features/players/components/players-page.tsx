import { serverPageMessages } from '@canopy/contract';
import { ServerPageGate } from '../../../components/server-page-gate.tsx';
import { PlayersPanel } from './players-panel.tsx';

const texts = {
  banned: serverPageMessages.bannedPlayers,
  noPermission: serverPageMessages.noPermissionPlayers,
  offline: serverPageMessages.playersOffline,
};

/** The Player Database (/players): the players of the running server, filterable, editable and bannable. */
export function PlayersPage() {
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">Player Database</h1>
        <p className="mt-1 text-ink-muted">Find, edit and ban the players of your running server.</p>
      </header>
      <ServerPageGate permission="players:manage" texts={texts}>
        <PlayersPanel />
      </ServerPageGate>
    </section>
  );
}
