import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { type RunningApp, startApp } from './app.ts';
import { launchBrowser } from './browser.ts';

/** What a `describe` block of an e2e file shares: one started app and one browser. */
export interface E2eSuite {
  app: RunningApp;
  browser: Browser;
}

/**
 * Registers the `before`/`after` hooks of the enclosing `describe`: starts the app (with `env` added to its
 * environment, as `startApp` takes it) and the browser, and closes both afterwards. Returns the object the
 * `before` hook fills in, so tests read `suite.app` / `suite.browser` once the hooks have run (a destructured
 * copy taken at describe time would still be empty). A file's own `before` registered after this runs later.
 */
export function useApp(env: Record<string, string> = {}): E2eSuite {
  const suite = {} as E2eSuite;
  before(async () => {
    suite.app = await startApp(env);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    // Either may be missing when starting failed; the other is still cleaned up.
    await suite.browser?.close();
    await suite.app?.stop();
  });
  return suite;
}
