import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { historyMessages } from '@canopy/contract';
import { ownerWithServer } from './support/pages.ts';
import { useApp } from './support/suite.ts';

// Issue 24 item 2: the dashboard charts the server's players, CPU and memory from the api's samples.
describe('history graphs', () => {
  const suite = useApp();

  /** Five 1-minute samples ending with the current minute (the sampler takes one a minute; the test cannot wait). */
  function seedSamples(ownerId: string) {
    const db = new DatabaseSync(join(suite.app.dataDir, 'canopy.db'));
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      const server = db.prepare('SELECT id FROM servers WHERE owner_id = ?').get(ownerId) as { id: string };
      const minute = Date.now() - (Date.now() % 60_000);
      const insert = db.prepare(
        'INSERT INTO server_samples (server_id, step_ms, at, samples, players, cpu, memory) VALUES (?, 60000, ?, 1, ?, ?, ?)',
      );
      for (let k = 4; k >= 0; k--) insert.run(server.id, minute - k * 60_000, 8 - k, 12.5, 64 * 1024 * 1024);
    } finally {
      db.close();
    }
  }

  it('shows players, CPU and memory of the last hour, and the other ranges', async () => {
    const { page, id } = await ownerWithServer(suite.browser, suite.app, {
      username: 'charts',
      growId: 'Charts1',
      serverName: 'Chart_Grove',
    });
    seedSamples(id);
    await page.reload();
    const card = page.getByTestId('server-history');
    await card.getByTestId('history-players').waitFor();
    assert.match((await card.getByTestId('history-players').locator('figcaption').textContent()) ?? '', /8$/);
    assert.match((await card.getByTestId('history-cpu').locator('figcaption').textContent()) ?? '', /12\.5$/);
    assert.match((await card.getByTestId('history-memory').locator('figcaption').textContent()) ?? '', /64$/);
    await card.getByRole('tab', { name: historyMessages.ranges.day }).click();
    await card.locator('#server-history-panel-day').waitFor();
    assert.match((await card.getByTestId('history-players').locator('figcaption').textContent()) ?? '', /8$/);
  });
});
