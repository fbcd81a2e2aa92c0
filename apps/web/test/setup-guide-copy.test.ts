import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setupGuideMessages } from '@canopy/contract';
import { copyText } from '../src/features/setup-guide/copy-text.ts';

it('copies the text and reports success', async () => {
  const written: string[] = [];
  const outcome = await copyText('1.2.3.4 www.growtopia1.com', 'hosts lines', async (t) => {
    written.push(t);
  });
  assert.deepEqual(outcome, { type: 'success', message: setupGuideMessages.copied });
  assert.deepEqual(written, ['1.2.3.4 www.growtopia1.com']);
});

it("says 'No {label} to copy.' without calling the clipboard when there is nothing", async () => {
  for (const empty of [undefined, null, '', '  \n']) {
    const outcome = await copyText(empty, 'tunnel URL', async () => assert.fail('nothing should be written'));
    assert.deepEqual(outcome, { type: 'error', message: 'No tunnel URL to copy.' });
  }
});

it("says 'Failed to copy.' when the browser refuses", async () => {
  const outcome = await copyText('https://panel/setup/surge.conf', 'profile URL', async () => {
    throw new DOMException('denied', 'NotAllowedError');
  });
  assert.deepEqual(outcome, { type: 'error', message: 'Failed to copy.' });
});
