import { type Profile, type Settings, webRoutes } from '@canopy/contract';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { LockIcon } from '../../../components/lock-icon.tsx';
import { navItems } from '../nav-access.ts';
import { SidebarFooter } from './sidebar-footer.tsx';

export interface SidebarProps {
  profile: Profile;
  settings: Settings;
  onLogout: () => void;
  /** Called after a link is followed (closes the menu on small screens). */
  onNavigate?: () => void;
}

const linkBase = 'flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm';
const lockedNoteId = (path: string) => `locked-note${path.replace(/\//g, '-')}`;

/**
 * The sidebar of spec 2.5: links from the contract's route table, locked ones not navigable. A locked link's
 * reason is its tooltip, and on a tap, click or Enter a note under it: a phone has no hover.
 */
export function Sidebar({ profile, settings, onLogout, onNavigate }: SidebarProps) {
  const items = navItems(webRoutes, profile, settings);
  const [noted, setNoted] = useState<string | null>(null);
  const toggleNote = (path: string) => setNoted((open) => (open === path ? null : path));
  return (
    <div className="flex h-full flex-col">
      <div className="hidden px-5 py-5 md:block">
        <p className="font-bold text-accent text-xl">Canopy</p>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3">
        <ul className="flex flex-col gap-0.5">
          {items.map(({ route, locked, reason }) => (
            <li key={route.path}>
              {locked ? (
                // biome-ignore lint/a11y/useSemanticElements: a locked link must not navigate, so it has no href; the role and tabIndex keep it announced and focusable with its reason
                <span
                  role="link"
                  tabIndex={0}
                  aria-disabled="true"
                  aria-expanded={noted === route.path}
                  aria-describedby={noted === route.path ? lockedNoteId(route.path) : undefined}
                  title={reason ?? undefined}
                  data-locked="true"
                  onClick={() => toggleNote(route.path)}
                  onKeyDown={(e) => {
                    if (e.key !== 'Enter' && e.key !== ' ') return;
                    e.preventDefault();
                    toggleNote(route.path);
                  }}
                  className={`${linkBase} cursor-not-allowed text-ink-muted/60`}
                >
                  {route.label}
                  <LockIcon />
                </span>
              ) : (
                <NavLink
                  to={route.path}
                  onClick={onNavigate}
                  className={({ isActive }) =>
                    `${linkBase} ${isActive ? 'bg-accent/15 font-medium text-accent' : 'text-ink-muted hover:bg-surface-raised hover:text-ink'}`
                  }
                >
                  {route.label}
                </NavLink>
              )}
              {locked && noted === route.path && (
                <p
                  id={lockedNoteId(route.path)}
                  role="note"
                  data-testid="locked-note"
                  className="mx-3 mb-1 rounded-md bg-surface-raised px-3 py-2 text-ink-muted text-xs"
                >
                  {reason}
                </p>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <SidebarFooter profile={profile} onLogout={onLogout} />
    </div>
  );
}
