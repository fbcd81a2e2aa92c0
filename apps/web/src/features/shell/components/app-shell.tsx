import type { Profile, Settings } from '@canopy/contract';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { ServerPageTimeBanners } from '../../../components/server-time-banners.tsx';
import { useEscapeKey } from '../../../hooks/use-escape-key.ts';
import { isServerPage } from '../../../lib/server-time-warning.ts';
import { SkyHelper } from '../../assistant/components/sky-helper.tsx';
import { Sidebar } from './sidebar.tsx';

export interface AppShellProps {
  profile: Profile;
  settings: Settings;
  onLogout: () => void;
  children: ReactNode;
}

/**
 * The signed-in layout: sidebar plus page content. Below the md breakpoint the sidebar becomes a
 * drawer under a sticky top bar; it lies over the page (the page keeps its scroll position) and
 * closes on navigation and on Escape.
 */
export function AppShell({ profile, settings, onLogout, children }: AppShellProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the effect of a path change
  useEffect(() => setMenuOpen(false), [pathname]);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useEscapeKey(menuOpen, closeMenu);

  return (
    <div className="min-h-screen md:flex">
      <div className="sticky top-0 z-30 flex h-14 items-center justify-between border-line border-b bg-canvas px-4 md:hidden">
        <span className="font-bold text-accent">Canopy</span>
        <button
          type="button"
          aria-expanded={menuOpen}
          aria-controls="app-sidebar"
          onClick={() => setMenuOpen((open) => !open)}
          className="rounded-md border border-line px-3 py-1 text-ink text-sm"
        >
          {menuOpen ? 'Close' : 'Menu'}
        </button>
      </div>
      <aside
        id="app-sidebar"
        aria-label="Sidebar"
        className={`${menuOpen ? 'block' : 'hidden'} fixed inset-x-0 top-14 bottom-0 z-30 overflow-y-auto bg-surface md:sticky md:inset-auto md:top-0 md:block md:h-screen md:w-64 md:shrink-0 md:border-line md:border-r`}
      >
        <Sidebar profile={profile} settings={settings} onLogout={onLogout} onNavigate={() => setMenuOpen(false)} />
      </aside>
      <main className="min-w-0 flex-1 px-4 pt-6 pb-20 md:px-8 md:pt-8 md:pb-20">
        {/* The dashboard places these among its own notices; a server page has none, so the shell adds them. */}
        {isServerPage(pathname) && <ServerPageTimeBanners profile={profile} settings={settings} className="mb-6" />}
        {children}
      </main>
      {/* Floats over the bottom-right corner; main's bottom padding keeps the page's last controls clear of it. */}
      <SkyHelper />
    </div>
  );
}
