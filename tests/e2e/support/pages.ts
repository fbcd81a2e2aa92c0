import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { apiCreateServer, apiSignIn } from './api.ts';
import type { RunningApp } from './app.ts';
import { signInAndRegister } from './browser.ts';

/** A hosted server needs a moment to boot; its status and console lines then arrive over the socket. */
export const LIVE_TIMEOUT_MS = 60_000;

/** The sidebar (the app's main navigation). */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Opens a page from the sidebar by its link's label. */
export const open = (page: Page, label: string) => sidebar(page).getByRole('link', { name: label }).click();

/** Waits for a toast (or any text) reading exactly `text`. */
export const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

/**
 * Waits for the dashboard's server card to show `status`; a timeout says what the card showed, what
 * GET /status answered and the end of the app's log, since a server that never comes up is explained there.
 */
export async function statusIs(page: Page, app: RunningApp, status: string, timeout = LIVE_TIMEOUT_MS) {
  try {
    await page.locator(`[data-testid="server-status"] [data-status="${status}"]`).waitFor({ timeout });
  } catch (error) {
    const feed = await fetch(`${app.url}/status`).then((r) => r.text(), String);
    const shown = await page
      .getByTestId('server-status')
      .textContent()
      .catch(() => null);
    throw new Error(
      `card never showed ${status} (shows ${shown}); GET /status: ${feed}\napp log:\n${app.output().slice(-3000)}`,
      { cause: error },
    );
  }
}

/** A fresh browser context signed in and registered through the UI, waiting on the dashboard. */
export async function registeredPage(
  browser: Browser,
  app: RunningApp,
  username: string,
  growId: string,
  context: BrowserContextOptions = {},
): Promise<Page> {
  const page = await (await browser.newContext(context)).newPage();
  await signInAndRegister(page, app.url, username, growId);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}

/**
 * A user registered through the UI who owns a server created over the api (started too, with `start`), on
 * the dashboard reloaded so the page knows the server. Returns the page and the user's api session.
 */
export async function ownerWithServer(
  browser: Browser,
  app: RunningApp,
  user: { username: string; growId: string; serverName: string },
  { start = false, context = {} }: { start?: boolean; context?: BrowserContextOptions } = {},
) {
  const page = await registeredPage(browser, app, user.username, user.growId, context);
  const session = await apiSignIn(app.url, user.username);
  await apiCreateServer(app, session, user.serverName, { start });
  await page.reload();
  return { page, ...session };
}
