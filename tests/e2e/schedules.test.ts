import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scheduleMessages as sm } from '@canopy/contract';
import { apiCall } from './support/api.ts';
import { open, ownerWithServer, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

describe('Schedules', () => {
  const suite = useApp();

  it('adds a weekly broadcast in a time zone, shows it in the list and deletes it', async () => {
    const { page, id, token } = await ownerWithServer(suite.browser, suite.app, {
      username: 'planner',
      growId: 'Planner1',
      serverName: 'Plan_Grove',
    });
    await open(page, sm.title);
    await page.getByTestId('schedules-empty').waitFor();

    await page.getByTestId('schedule-action').selectOption('broadcast');
    await page.getByTestId('schedule-weekday').selectOption('5');
    await page.getByTestId('schedule-time').fill('18:30');
    await page.getByTestId('schedule-zone').selectOption('Asia/Jakarta');
    await page.getByTestId('schedule-message').fill('Event starts now!');
    await page.getByTestId('schedule-save').click();
    await toast(page, sm.created);
    await page.getByTestId('schedule-row').getByText('Every Friday at 18:30 (Asia/Jakarta)').waitFor();

    const stored = (await apiCall(suite.app.url, token, 'GET', `/users/${id}/server/schedules`)).body.schedules;
    assert.deepEqual(
      stored.map((s: { action: string; message: string; weekday: number }) => [s.action, s.message, s.weekday]),
      [['broadcast', 'Event starts now!', 5]],
    );

    await page.getByTestId('schedule-delete').click();
    await toast(page, sm.deleted);
    await page.getByTestId('schedules-empty').waitFor();
  });
});
