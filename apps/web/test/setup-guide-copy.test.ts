import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setupGuideContent } from '@canopy/contract';
import { copyText } from '../src/lib/copy-text.ts';

it("copies the text and reports success in the page's language", async () => {
  const written: string[] = [];
  const write = async (t: string) => {
    written.push(t);
  };
  const { ID, EN } = setupGuideContent;
  const id = await copyText('1.2.3.4 www.growtopia1.com', 'hosts lines', write, ID.labels.copied);
  assert.deepEqual(id, { type: 'success', message: 'Disalin ke papan klip.' });
  const en = await copyText('1.2.3.4 www.growtopia1.com', 'hosts lines', write, EN.labels.copied);
  assert.deepEqual(en, { type: 'success', message: 'Copied to clipboard.' });
  assert.deepEqual(written, ['1.2.3.4 www.growtopia1.com', '1.2.3.4 www.growtopia1.com']);
});

it("says 'No {label} to copy.' without calling the clipboard when there is nothing", async () => {
  for (const empty of [undefined, null, '', '  \n']) {
    const outcome = await copyText(empty, 'tunnel URL', async () => assert.fail('nothing should be written'), 'Copied');
    assert.deepEqual(outcome, { type: 'error', message: 'No tunnel URL to copy.' });
  }
});

it("says 'Failed to copy.' when the browser refuses", async () => {
  const outcome = await copyText(
    'https://panel/setup/surge.conf',
    'profile URL',
    async () => {
      throw new DOMException('denied', 'NotAllowedError');
    },
    'Copied',
  );
  assert.deepEqual(outcome, { type: 'error', message: 'Failed to copy.' });
});
