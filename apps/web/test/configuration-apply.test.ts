import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configurationMessages as c, configAppliedMessage } from '@canopy/contract';
import { applyNote } from '../src/features/configuration/apply-note.ts';

describe('how a configuration save is applied', () => {
  it('says beside the save that a stopped server stays stopped, and nothing while it runs', () => {
    assert.equal(applyNote('OFFLINE'), c.appliedNextStart);
    for (const status of ['ONLINE', 'STARTING', 'RESTARTING', 'STOPPING', 'UNKNOWN', undefined] as const)
      assert.equal(applyNote(status), null, String(status));
  });
  it("words the api's answer: restarting now, at the next start, or not at all when nothing changed", () => {
    assert.equal(configAppliedMessage('restarting'), c.appliedRestarting);
    assert.equal(configAppliedMessage('next_start'), c.appliedNextStart);
    assert.equal(configAppliedMessage('unchanged'), 'Nothing changed, so the server was not restarted.');
  });
});
