import type { AdminTab, AdminTabId } from '@canopy/contract';

/** The `?tab=` parameter that keeps the open tab in the address (reload and back keep it). */
export const ADMIN_TAB_PARAM = 'tab';

/**
 * The tab to show: the one named in the address when the admin may open it, else their first tab; null
 * when they may open none (an admin without any permission sees the no-permission text).
 */
export function chooseAdminTab(requested: string | null, visible: readonly AdminTab[]): AdminTabId | null {
  const match = visible.find((tab) => tab.id === requested);
  return (match ?? visible[0])?.id ?? null;
}
