import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { FEEDBACK_MESSAGE_MAX, feedbackMessages as f } from '@canopy/contract';
import { apiSignIn } from './support/api.ts';
import type { RunningApp } from './support/app.ts';
import { open, registeredPage, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

/** Runs one statement on the app's SQLite database (reads, or set-ups the api has no call for). */
function onDb<T>(app: RunningApp, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(join(app.dataDir, 'canopy.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

describe('Feedback', () => {
  const suite = useApp();

  it('sends feedback: the toast, the cleared form and the stored row with the sender', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'critic', 'Critic1', {
      viewport: { width: 1280, height: 900 },
    });
    const { id } = await apiSignIn(suite.app.url, 'critic');
    await open(page, 'Feedback');
    await page.getByRole('heading', { name: f.title, exact: true }).waitFor();

    // An empty message is refused on the page before anything is sent.
    await page.getByTestId('feedback-submit').click();
    await page.getByTestId('feedback-error').getByText(f.empty, { exact: true }).waitFor();

    const message = 'The shop page could show prices in a bigger font.';
    await page.getByLabel(f.typeLabel).selectOption('Bug Report');
    // The counter counts what will be sent: the trimmed message. A full message with spaces around it is
    // accepted, so the counter stays calm; one character more turns it red.
    const counter = page.getByTestId('feedback-counter');
    const isRed = async () => (await counter.getAttribute('class'))?.includes('text-red-400');
    await page.getByLabel(f.messageLabel).fill(`  ${'a'.repeat(FEEDBACK_MESSAGE_MAX)}  `);
    assert.equal(await counter.textContent(), `${FEEDBACK_MESSAGE_MAX}/${FEEDBACK_MESSAGE_MAX}`);
    assert.equal(await isRed(), false);
    await page.getByLabel(f.messageLabel).fill(`  ${'a'.repeat(FEEDBACK_MESSAGE_MAX + 1)}  `);
    assert.equal(await counter.textContent(), `${FEEDBACK_MESSAGE_MAX + 1}/${FEEDBACK_MESSAGE_MAX}`);
    assert.equal(await isRed(), true);
    await page.getByLabel(f.messageLabel).fill(`  ${message}  `);
    assert.equal(await counter.textContent(), `${message.length}/${FEEDBACK_MESSAGE_MAX}`);
    await page.screenshot({ path: '/tmp/feedback-page.png', fullPage: true });
    await page.getByTestId('feedback-submit').click();
    await toast(page, f.thanks);
    assert.equal(await page.getByLabel(f.messageLabel).inputValue(), '');
    assert.equal(await page.getByLabel(f.typeLabel).inputValue(), 'Suggestion');

    const rows = onDb(suite.app, (db) =>
      db
        .prepare(
          'SELECT type, message, submitted_by_username, submitted_by_grow_id, status FROM feedback WHERE user_id = ?',
        )
        .all(id),
    );
    assert.deepEqual(
      rows.map((r) => ({ ...r })),
      [
        {
          type: 'Bug Report',
          message,
          submitted_by_username: 'critic',
          submitted_by_grow_id: 'Critic1',
          status: 'New',
        },
      ],
    );
  });

  it('a banned user can open the page but not send', async () => {
    const page = await registeredPage(suite.browser, suite.app, 'outcast', 'Outcast1');
    const { id } = await apiSignIn(suite.app.url, 'outcast');
    onDb(suite.app, (db) => db.prepare("UPDATE users SET is_banned = 1, ban_reason = 'spam' WHERE id = ?").run(id));
    await page.reload();
    await open(page, 'Feedback');
    await page.getByTestId('feedback-banned').getByText(f.banned, { exact: true }).waitFor();
    assert.equal(await page.getByTestId('feedback-submit').isDisabled(), true);
    assert.equal(await page.getByLabel(f.messageLabel).isDisabled(), true);
  });

  it("says the spec's default when the api answers without an error field", async () => {
    const page = await registeredPage(suite.browser, suite.app, 'gatewayed', 'Gatewayed1');
    // A proxy's HTML error page: no JSON, so no 'error' field.
    await page.route('**/feedback', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' })
        : route.continue(),
    );
    await open(page, 'Feedback');
    await page.getByLabel(f.messageLabel).fill('Hello there.');
    await page.getByTestId('feedback-submit').click();
    await toast(page, f.failed);
    assert.equal(await page.getByLabel(f.messageLabel).inputValue(), 'Hello there.', 'the message is kept');
  });
});
