// A server holding MAX_WORLDS worlds creates no more when a player joins an unknown name; existing worlds stay
// joinable. A headless client over real UDP against a real engine filled with sample worlds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_WORLDS } from '@canopy/contract/engine-constants';
import { type BotEngine, enter, startBotEngine } from './support/bots.ts';
import { buildPlayer } from './support/factories.ts';

describe('the world cap', () => {
  let t: BotEngine;
  const total = async () => (await t.engine.request('GET', '/worlds?limit=1')).body.total;
  before(async () => {
    t = await startBotEngine(['--sample-worlds', String(MAX_WORLDS)]);
    assert.equal((await t.engine.request('PUT', '/players/Eve', buildPlayer())).status, 201);
  });
  after(() => t.close());

  it(`refuses to create a world past ${MAX_WORLDS} with a reason, and lets players into existing ones`, async () => {
    assert.equal(await total(), MAX_WORLDS);
    const eve = await t.bot('eve');
    await assert.rejects(
      eve.join('BRANDNEW'),
      new RegExp(`^Error: This server has reached its limit of ${MAX_WORLDS} worlds`),
    );
    assert.equal((await t.engine.request('GET', '/worlds/BRANDNEW')).status, 404);
    assert.equal(await total(), MAX_WORLDS);
    assert.equal((await enter(eve, 'START')).name, 'START');
  });
});
