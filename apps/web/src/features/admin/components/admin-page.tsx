import {
  type AdminTabId,
  adminPanelMessages,
  adminTabs,
  adminCommonLabels as common,
  visibleAdminTabs,
} from '@canopy/contract';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SkeletonRows } from '../../../components/ui/index.ts';
import { useEscapeKey } from '../../../hooks/use-escape-key.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { adminCallerOf } from '../admin-caller.ts';
import { ADMIN_TAB_PARAM, chooseAdminTab } from '../admin-tab-param.ts';
import { useRecheckProfileOnRefusal } from '../api/admin-refusals.ts';
import { AdminSidebar } from './admin-sidebar.tsx';
import { adminTabContent } from './admin-tab-content.tsx';

/**
 * The Admin Panel (/admin, admin document): a sidebar of the tabs the admin may open (a slide-in menu on small
 * screens) and the open tab, named in the address (`?tab=users`). The route gate sends non-admins to
 * /dashboard; one who still reaches this page sees the no-permission text. A refused admin call reloads the
 * profile, so an admin removed while the panel is open leaves it.
 */
export function AdminPage() {
  const { profile } = useRegisteredProfile();
  useRecheckProfileOnRefusal(profile.id);
  const [params, setParams] = useSearchParams();
  const [menuOpen, setMenuOpen] = useState(false);
  const caller = adminCallerOf(profile);
  const tabs = caller.isAdmin ? visibleAdminTabs(caller) : [];
  const requested = params.get(ADMIN_TAB_PARAM);
  const active = chooseAdminTab(requested, tabs);

  // A tab the admin may not open (or that does not exist) falls back to their first: the address says so too,
  // replacing the entry so that Back does not return to the refused tab.
  useEffect(() => {
    if (requested !== null && active !== null && requested !== active)
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set(ADMIN_TAB_PARAM, active);
          return next;
        },
        { replace: true },
      );
  }, [requested, active, setParams]);

  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useEscapeKey(menuOpen, closeMenu);

  if (active === null)
    return (
      <section className="flex flex-col gap-4">
        <h1 className="font-bold text-2xl text-ink">{common.panelTitle}</h1>
        <p data-testid="admin-no-permission" className="text-red-400">
          {adminPanelMessages.noPermission}
        </p>
      </section>
    );

  const select = (tab: AdminTabId) => {
    setParams({ [ADMIN_TAB_PARAM]: tab });
    setMenuOpen(false);
  };
  const label = adminTabs.find((tab) => tab.id === active)?.label;
  const Content = adminTabContent[active];

  return (
    <section className="flex flex-col gap-6">
      <header className="flex items-center justify-between gap-3">
        <h1 className="font-bold text-2xl text-ink">{common.panelTitle}</h1>
        <button
          type="button"
          aria-expanded={menuOpen}
          aria-controls="admin-menu"
          onClick={() => setMenuOpen((open) => !open)}
          className="rounded-md border border-line px-3 py-1 text-ink text-sm lg:hidden"
        >
          {menuOpen ? common.closeSections : common.sections}
        </button>
      </header>
      <div className="flex gap-6">
        {menuOpen && (
          <button
            type="button"
            aria-label={common.closeSections}
            tabIndex={-1}
            onClick={() => setMenuOpen(false)}
            className="fixed inset-0 z-40 bg-black/50 lg:hidden"
          />
        )}
        <aside
          id="admin-menu"
          className={`${menuOpen ? 'translate-x-0' : '-translate-x-full'} fixed inset-y-0 left-0 z-50 w-64 overflow-y-auto border-line border-r bg-surface p-4 transition-transform motion-reduce:transition-none lg:static lg:z-auto lg:w-52 lg:shrink-0 lg:translate-x-0 lg:border-0 lg:bg-transparent lg:p-0`}
        >
          <AdminSidebar tabs={tabs} active={active} onSelect={select} />
        </aside>
        <div className="min-w-0 flex-1" data-testid="admin-tab" data-tab={active}>
          <h2 className="mb-4 font-semibold text-ink text-xl">{label}</h2>
          <Suspense fallback={<SkeletonRows rows={4} />}>
            <Content />
          </Suspense>
        </div>
      </div>
    </section>
  );
}
