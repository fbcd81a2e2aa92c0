import type { Profile, Settings } from '@canopy/contract';
import { type ReactNode, useState } from 'react';
import { Sidebar } from './sidebar.tsx';

export interface AppShellProps {
  profile: Profile;
  settings: Settings;
  onLogout: () => void;
  children: ReactNode;
}

/** The signed-in layout: sidebar plus page content; on small screens the sidebar is a toggled drawer. */
export function AppShell({ profile, settings, onLogout, children }: AppShellProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="min-h-screen md:flex">
      <div className="flex items-center justify-between border-line border-b px-4 py-3 md:hidden">
        <span className="font-bold text-accent">Canopy</span>
        <button
          type="button"
          aria-expanded={menuOpen}
          aria-controls="app-sidebar"
          onClick={() => setMenuOpen((open) => !open)}
          className="rounded-md border border-line px-3 py-1 text-ink text-sm"
        >
          Menu
        </button>
      </div>
      <aside
        id="app-sidebar"
        className={`${menuOpen ? 'block' : 'hidden'} border-line border-b bg-surface md:sticky md:top-0 md:block md:h-screen md:w-64 md:shrink-0 md:border-r md:border-b-0`}
      >
        <Sidebar profile={profile} settings={settings} onLogout={onLogout} onNavigate={() => setMenuOpen(false)} />
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">{children}</main>
    </div>
  );
}
