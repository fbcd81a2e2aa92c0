import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assistantMessages as a } from '@canopy/contract';
import type { Page } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { type FakeAiServer, startFakeAi } from '../../apps/api/test/support/fake-ai.ts';
import { setStorageLimit } from './support/app.ts';
import { ownerWithServer, registeredPage, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const button = (page: Page) => page.getByTestId('skyhelper-button');
const chatWindow = (page: Page) => page.getByRole('dialog', { name: a.title });
const input = (page: Page) => chatWindow(page).getByRole('textbox', { name: a.placeholder });
const answers = (page: Page) => chatWindow(page).locator('[data-testid="skyhelper-message"][data-role="model"]');

/** Opens SkyHelper from its button and asks `question` with Enter. */
async function ask(page: Page, question: string) {
  if (!(await chatWindow(page).isVisible())) await button(page).click();
  await input(page).fill(question);
  await input(page).press('Enter');
}

describe('SkyHelper with the offline helper', () => {
  const suite = useApp();

  it("answers why Start is disabled from the user's live state, keyboard first, and keeps the chat for the session", async () => {
    const { page } = await ownerWithServer(
      suite.browser,
      suite.app,
      { username: 'skyasker', growId: 'SkyAsker1', serverName: 'MyServer' },
      { context: { viewport: { width: 1280, height: 800 } } },
    );
    setStorageLimit(suite.app, devUser('skyasker').id, 0);
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // The button's icon is drawn (an emoji shows as an empty box where the browser has no emoji font).
    assert.equal(await button(page).locator('svg').count(), 1);
    // Opening moves the focus to the input.
    await button(page).click();
    await chatWindow(page).waitFor();
    assert.equal(await input(page).evaluate((el) => el === document.activeElement), true);
    // Shift+Enter is a new line, not a send.
    await input(page).fill('Why');
    await input(page).press('Shift+Enter');
    assert.equal(await input(page).inputValue(), 'Why\n');
    assert.equal(await chatWindow(page).locator('[data-testid="skyhelper-message"]').count(), 0);

    await ask(page, "Why can't I start my server?");
    const answer = answers(page).first();
    await answer.getByText(/Start is disabled because/).waitFor();
    const text = (await answer.textContent()) ?? '';
    assert.match(text, /Your server MyServer is OFFLINE/);
    assert.match(text, /storage is full \([\d.]+MB of 0MB\)/);
    assert.ok(text.includes(a.offlineDisclaimer), 'it says plainly that it is the offline helper');
    await page.screenshot({ path: '/tmp/skyhelper-offline.png' });

    // Escape closes the window and gives the focus back to the button.
    await input(page).press('Escape');
    await chatWindow(page).waitFor({ state: 'detached' });
    assert.equal(await button(page).evaluate((el) => el === document.activeElement), true);

    // The conversation survives a reload (session storage), on another page too.
    await page.goto(`${suite.app.url}/how-to-play`);
    await button(page).click();
    await answers(page)
      .first()
      .getByText(/Start is disabled because/)
      .waitFor();
    await chatWindow(page).locator('[data-role="user"]').getByText("Why can't I start my server?").waitFor();

    // A connection question gets the Setup Guide's steps.
    await ask(page, 'How do I connect from Android?');
    await answers(page)
      .nth(1)
      .getByText(/PowerTunnel/)
      .first()
      .waitFor();
  });

  it("stays under the phone menu, so it never covers the menu's footer", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'skyphone', 'SkyPhone1', {
      viewport: { width: 390, height: 844 },
    });
    await button(page).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    // What a tap at the button's centre reaches: the open menu, not SkyHelper.
    const box = await button(page).boundingBox();
    assert.ok(box);
    const hit = await page.evaluate(
      ([x, y]) =>
        document.elementFromPoint(x, y)?.closest('[data-testid="skyhelper-button"], #app-sidebar')?.id ?? null,
      [box.x + box.width / 2, box.y + box.height / 2] as const,
    );
    assert.equal(hit, 'app-sidebar');
  });

  it("says the spec's default when the answer has no error field (a proxy's 502 page)", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'skyproxied', 'SkyProxied1');
    // A proxy's HTML error page: no JSON, so no 'error' field.
    await page.route('**/ai/chat', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' }),
    );
    await ask(page, 'Hello there');
    await toast(page, a.failed);
    await answers(page).first().getByText(a.errorLine, { exact: true }).waitFor();
  });
});

describe('SkyHelper with an OpenAI-compatible server', () => {
  const env: Record<string, string> = { CANOPY_AI_PROVIDER: 'openai' };
  let fake: FakeAiServer;
  // Registered before useApp's hook, so the app starts pointed at the fake.
  before(async () => {
    fake = await startFakeAi('openai');
    env.CANOPY_AI_BASE_URL = `${fake.url}/v1`;
  });
  const suite = useApp(env);
  after(() => fake?.stop());

  it("shows the model's answer, a typing indicator while it waits, and the error line when the provider fails", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'skymodel', 'SkyModel1');
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.decide = (req) => {
      const last = req.body.messages.at(-1)?.content ?? '';
      if (String(last).includes('break')) return { kind: 'error', status: 500 };
      return { kind: 'reply', text: 'Hello from the local model.', after: released };
    };

    await ask(page, 'Hello there');
    // The answer waits for the test: meanwhile the typing indicator shows and Send is disabled.
    await chatWindow(page).getByTestId('skyhelper-typing').waitFor();
    assert.equal(await chatWindow(page).getByRole('button', { name: a.send }).isDisabled(), true);
    release();
    await answers(page).first().getByText('Hello from the local model.', { exact: true }).waitFor();
    await chatWindow(page).getByTestId('skyhelper-typing').waitFor({ state: 'detached' });
    const sent = fake.last().body;
    assert.equal(sent.messages[0].role, 'system');
    assert.ok(String(sent.messages[0].content).includes('SkyModel1'), "the prompt holds the user's GrowID");

    await ask(page, 'Please break');
    await toast(page, a.failed);
    await answers(page).nth(1).getByText(a.errorLine, { exact: true }).waitFor();
    // The history sent with the next question holds the first exchange, not the error line.
    await ask(page, 'And again');
    await answers(page).nth(2).getByText('Hello from the local model.', { exact: true }).waitFor();
    const roles = fake.last().body.messages.map((m: { role: string; content: string }) => [m.role, m.content]);
    assert.deepEqual(roles.slice(1), [
      ['user', 'Hello there'],
      ['assistant', 'Hello from the local model.'],
      ['user', 'Please break'],
      ['user', 'And again'],
    ]);
    await page.screenshot({ path: '/tmp/skyhelper-model.png' });
  });
});
