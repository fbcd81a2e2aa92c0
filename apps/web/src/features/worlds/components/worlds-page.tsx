import { serverPageMessages } from '@canopy/contract';
import { ServerPageGate } from '../../../components/server-page-gate.tsx';
import { WorldsPanel } from './worlds-panel.tsx';

const texts = {
  banned: serverPageMessages.bannedWorlds,
  noPermission: serverPageMessages.noPermissionWorlds,
  offline: serverPageMessages.worldsOffline,
};

/** The World Manager (/worlds): the worlds of the running server, searchable, editable and lockable. */
export function WorldsPage() {
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">World Manager</h1>
        <p className="mt-1 text-ink-muted">Inspect, edit, lock and delete the worlds of your running server.</p>
      </header>
      <ServerPageGate permission="worlds:manage" texts={texts}>
        <WorldsPanel />
      </ServerPageGate>
    </section>
  );
}
