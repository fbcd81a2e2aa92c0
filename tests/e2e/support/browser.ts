import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this sandbox needs (and a test's own `extraArgs`). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

/** Signs in from the login page (opening it unless the page is already in the app) through the dev stand-in. */
export async function signInWithDevProvider(page: Page, baseUrl: string, username: string) {
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await page.getByRole('link', { name: /login with discord/i }).click();
  await page.waitForURL(/\/dev-discord\/oauth2\/authorize/);
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('button', { name: 'Authorize' }).click();
}

/** Signs in and registers a GrowID through the registration screen. */
export async function signInAndRegister(page: Page, baseUrl: string, username: string, growId: string) {
  await signInWithDevProvider(page, baseUrl, username);
  await page.getByLabel('GrowID').fill(growId);
  await page.getByRole('button', { name: /register/i }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /confirm|yes|register/i })
    .click();
}
