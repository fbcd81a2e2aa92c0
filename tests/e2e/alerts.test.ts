import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { alertMessages } from '@canopy/contract';
import { FakeDiscordWebhooks } from '../../apps/api/test/support/fake-discord-webhooks.ts';
import { open, ownerWithServer, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const hooks = await new FakeDiscordWebhooks().start();
after(() => hooks.stop());

describe('Discord Alerts', () => {
  const suite = useApp({ CANOPY_ALERT_WEBHOOK_BASE: hooks.base, CANOPY_ALERT_INTERVAL_MS: '200' });

  it('sets a webhook, shows it as a hint only, and the Test button posts to it', async () => {
    const { page } = await ownerWithServer(suite.browser, suite.app, {
      username: 'herald',
      growId: 'Herald1',
      serverName: 'Herald_Grove',
    });
    const url = hooks.webhook('424242');
    await open(page, 'Discord Alerts');
    await page.getByLabel('Discord webhook URL').fill(url);
    await page.getByRole('switch', { name: 'Server started' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, alertMessages.saved);
    await page.getByText(`Set: ${hooks.base}4242…/••••`, { exact: false }).waitFor();
    assert.equal(await page.getByLabel('Discord webhook URL').inputValue(), '', 'the URL is not shown again');

    await page.getByRole('button', { name: 'Test' }).click();
    await toast(page, alertMessages.testQueued);
    const deadline = Date.now() + 20_000;
    while (hooks.postsTo(url).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(hooks.postsTo(url)[0]?.body.embeds[0].title ?? '', /^Test alert: Herald_Grove$/);
  });
});
