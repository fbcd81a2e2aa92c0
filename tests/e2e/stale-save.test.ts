import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverPageMessages, versionedWriteMessages as v } from '@canopy/contract';
import { apiCall } from './support/api.ts';
import { open, ownerWithServer, statusIs, toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

// Issue 21, item 16: a save of the World Manager never undoes a change made since the editor opened it. The world
// changes behind the open editor (as a block placed in the game does: the same revision moves), the save is
// refused with the message, and Reload brings the latest world with the unsaved edit on top.
describe('a world changed while its editor is open', () => {
  const suite = useApp();

  it('refuses the stale save with the message; Reload keeps the edit and the change, and saves both', async () => {
    const { page, id, token } = await ownerWithServer(suite.browser, suite.app, {
      username: 'stalesaver',
      growId: 'Stale1',
      serverName: 'Stale_Grove',
    });
    await page.locator('[data-testid="socket-state"][data-state="OPEN"]').waitFor();
    await page.getByTestId('server-start').click();
    await statusIs(page, suite.app, 'ONLINE');

    await open(page, 'World Manager');
    const start = page.locator('[data-testid="world-row"][data-name="START"]');
    await start.getByTestId('world-edit').click();
    const editor = page.locator('[data-testid="world-editor"][data-state="loaded"]');
    await editor.waitFor();
    await editor.getByLabel('Music BPM').fill('150');

    // Meanwhile the world changes: its first tile gets a block.
    const path = `/users/${id}/server/worlds/START`;
    const current = (await apiCall(suite.app.url, token, 'GET', path)).body;
    const changed = { ...current, blocks: [{ ...current.blocks[0], fg: 2 }, ...current.blocks.slice(1)] };
    assert.equal((await apiCall(suite.app.url, token, 'PUT', path, changed)).status, 200);

    await editor.getByTestId('world-save').click();
    await editor.getByTestId('editor-problem').getByText(v.worldChanged).waitFor();
    await toast(page, v.worldChanged);
    const after409 = (await apiCall(suite.app.url, token, 'GET', path)).body;
    assert.equal(after409.music_bpm, current.music_bpm, 'the refused save changed nothing');

    await editor.getByTestId('world-reload').click();
    await toast(page, v.reloadedKept);
    assert.equal(await editor.getByLabel('Music BPM').inputValue(), '150', 'the unsaved edit is kept');
    await editor.getByTestId('world-save').click();
    await toast(page, serverPageMessages.worldSaved);
    await page.getByTestId('world-editor').waitFor({ state: 'detached' });
    const saved = (await apiCall(suite.app.url, token, 'GET', path)).body;
    assert.equal(saved.music_bpm, 150);
    assert.equal(saved.blocks[0].fg, 2, 'the change made meanwhile is not undone');
  });
});
