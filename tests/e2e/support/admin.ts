import type { Page } from 'playwright-core';
import { ADMIN_USERNAME } from './app.ts';
import { signInWithDevProvider } from './browser.ts';
import type { useApp } from './suite.ts';

/** The super admin's browser (desktop width) on /admin at `tab`, signed in through the dev provider. */
export async function adminPanel(suite: ReturnType<typeof useApp>, tab: string): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInWithDevProvider(page, suite.app.url, ADMIN_USERNAME);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await page.goto(`${suite.app.url}/admin?tab=${tab}`);
  await page.locator(`[data-testid="admin-tab"][data-tab="${tab}"]`).waitFor();
  return page;
}
