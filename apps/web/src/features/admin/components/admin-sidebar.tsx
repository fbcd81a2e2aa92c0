import { type AdminTab, type AdminTabId, adminCommonLabels } from '@canopy/contract';

export interface AdminSidebarProps {
  tabs: readonly AdminTab[];
  active: AdminTabId;
  onSelect: (tab: AdminTabId) => void;
}

/** The panel's tab list: a column beside the content, or the body of the slide-in menu on small screens. */
export function AdminSidebar({ tabs, active, onSelect }: AdminSidebarProps) {
  return (
    <nav aria-label={adminCommonLabels.sectionsNav} data-testid="admin-sidebar">
      <ul className="flex flex-col gap-1">
        {tabs.map((tab) => (
          <li key={tab.id}>
            <button
              type="button"
              data-tab={tab.id}
              aria-current={tab.id === active ? 'page' : undefined}
              onClick={() => onSelect(tab.id)}
              className="w-full rounded-md px-3 py-2 text-left text-ink-muted text-sm transition-colors hover:bg-surface-raised hover:text-ink aria-[current=page]:bg-accent/15 aria-[current=page]:font-medium aria-[current=page]:text-ink"
            >
              {tab.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
