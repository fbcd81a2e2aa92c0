import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bot, loginValidateUrl } from '@canopy/gtclient';
import type { Page } from 'playwright-core';
import type { RunningApp } from './support/app.ts';
import { LIVE_TIMEOUT_MS, ownerWithServer, statusIs } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const SCREENSHOT = '/tmp/game-players.png';

/**
 * Waits for the dashboard's server card to show `count` players; a timeout says what the card showed, what
 * GET /status answered and the end of the app's log (where the engine's "Players online: N" lines are).
 */
async function playersShown(page: Page, app: RunningApp, count: number) {
  const cell = page.getByTestId('server-players');
  try {
    await cell.filter({ hasText: new RegExp(`^${count}$`) }).waitFor({ timeout: LIVE_TIMEOUT_MS });
  } catch (error) {
    const feed = await fetch(`${app.url}/status`).then((r) => r.text(), String);
    const shown = await cell.textContent().catch(() => null);
    throw new Error(
      `dashboard never showed ${count} players (shows ${shown}); GET /status: ${feed}\napp log:\n${app.output().slice(-3000)}`,
      { cause: error },
    );
  }
}

/**
 * One player's whole way in, as the game client takes it: server_data.php on the gateway, the login page's token
 * call (creating the GrowID on `server`), the ENet front, the redirect to the engine, the world menu, a world.
 */
async function playerJoins(gatewayTls: number, server: string, growId: string, world: string): Promise<Bot> {
  const http = { insecure: true }; // the gateway's generated, self-signed certificate
  const bot = new Bot({ stepTimeoutMs: 15_000 });
  try {
    const data = await bot.serverData(`https://127.0.0.1:${gatewayTls}/growtopia/server_data.php`, http);
    assert.equal(data.maintenance ?? null, null, 'server_data.php announced maintenance');
    const loginUrl = loginValidateUrl(data.loginUrl ?? `127.0.0.1:${gatewayTls}`);
    const token = await bot.fetchToken(loginUrl, { server, growId, password: `${growId}-pw`, create: true }, http);
    const login = await bot.login({ host: data.server, port: data.port }, { token, meta: data.meta });
    assert.equal(login.name.toLowerCase(), growId.toLowerCase());
    await bot.enterGame();
    const joined = await bot.join(world);
    assert.equal(joined.name, world);
    return bot;
  } catch (error) {
    await bot.disconnect().catch(() => {});
    throw error;
  }
}

describe('dashboard: players online from real game clients', () => {
  const suite = useApp({
    CANOPY_GATEWAY: 'on',
    CANOPY_GATEWAY_TLS_PORT: '0',
    CANOPY_GATEWAY_UDP_PORT: '0',
    CANOPY_PUBLIC_IP: '127.0.0.1',
  });

  it('rises to 2 while two bots are in a world and falls back to 0 as they leave', async () => {
    const serverName = 'Bot_Garden';
    const { page } = await ownerWithServer(
      suite.browser,
      suite.app,
      { username: 'gardener', growId: 'Gardener1', serverName },
      { start: true, context: { viewport: { width: 1280, height: 800 } } },
    );
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await statusIs(page, suite.app, 'ONLINE');
    await playersShown(page, suite.app, 0);

    const { tlsPort } = await suite.app.gateway();
    const bots: Bot[] = [];
    try {
      bots.push(await playerJoins(tlsPort, serverName, 'Sprout1', 'GREENHOUSE'));
      bots.push(await playerJoins(tlsPort, serverName, 'Sprout2', 'GREENHOUSE'));

      await playersShown(page, suite.app, 2);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      const [first, second] = bots as [Bot, Bot];
      await first.disconnect();
      await playersShown(page, suite.app, 1);
      await second.disconnect();
      await playersShown(page, suite.app, 0);
    } finally {
      for (const bot of bots) await bot.disconnect().catch(() => {});
    }
  });
});
