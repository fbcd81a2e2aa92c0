import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Logger } from '../src/log.ts';

describe('engine log', () => {
  it('never prints a hidden host path: the data directory and the install are shown by name', () => {
    const printed: string[] = [];
    const log = new Logger({ sink: (text) => printed.push(text) });
    log.hidePath('/srv/canopy/data/servers/abc', '<data-dir>');
    log.hidePath('/srv/canopy', '<canopy>');
    log.warn(
      "Could not write the default kit.json: ENOSPC: no space left on device, open '/srv/canopy/data/servers/abc/kit.json.tmp'",
    );
    log.fatal('Uncaught error: Error: boom\n    at run (file:///srv/canopy/packages/engine/src/engine.ts:10:5)');
    const text = printed.join('');
    assert.doesNotMatch(text, /\/srv\/canopy/);
    assert.match(text, /open '<data-dir>\/kit\.json\.tmp'/);
    assert.match(text, /file:\/\/<canopy>\/packages\/engine\/src\/engine\.ts/);
    assert.equal(log.history().length, 3, 'a multi-line message is still several lines');
  });
});
