// The autofarm's timing and rules (net/game/autofarm.ts) on mocked timers: exact delays, the floor under a delay
// of 0, a reload applying at the next action, the block put back, and the stops. The game-creators test tries the
// same over real UDP from a client's side.
import assert from 'node:assert/strict';
import { beforeEach, describe, it, mock } from 'node:test';
import { createAutofarm, MIN_AUTOFARM_DELAY_MS } from '../src/net/game/autofarm.ts';
import type { Session } from '../src/net/game/session.ts';

const FIST = 18;
const DIRT = 2;

function setup(opts: { delay: number; refuseAfter?: number }) {
  const session = { world: {}, closing: false } as unknown as Session;
  const tile = { fg: DIRT, bg: 0 };
  let held = 3;
  const actions: { at: number; item: number }[] = [];
  const messages: string[] = [];
  const config = { delay: opts.delay };
  const farm = createAutofarm({
    delayMs: () => config.delay,
    tileAt: () => ({ ...tile }),
    holds: (_s, id) => id === DIRT && held > 0,
    act: async (_s, _x, _y, item) => {
      if (opts.refuseAfter !== undefined && actions.length >= opts.refuseAfter) return false;
      actions.push({ at: Date.now(), item });
      if (item === FIST)
        tile.fg = 0; // every punch breaks it here
      else {
        tile.fg = item;
        held--;
      }
      return true;
    },
    consoleMessage: (_s, text) => messages.push(text),
  });
  return { session, farm, actions, messages, config };
}

/** Lets the mocked timers run `ms`, a millisecond at a time, and the action's promise settle after each. */
async function advance(ms: number) {
  for (let t = 0; t < ms; t++) {
    mock.timers.tick(1);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

describe('autofarm', () => {
  beforeEach(() => {
    mock.timers.reset();
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  });

  it('acts every delay after the punch that picks the tile, putting the block back from the inventory', async () => {
    const { session, farm, actions } = setup({ delay: 300 });
    assert.equal(farm.toggle(session), true);
    farm.punched(session, 5, 5);
    await advance(299);
    assert.equal(actions.length, 0, 'nothing before the delay');
    await advance(1000);
    assert.deepEqual(
      actions.map((a) => [a.at, a.item]),
      [
        [300, FIST],
        [600, DIRT],
        [900, FIST],
        [1200, DIRT],
      ],
    );
  });

  it('never acts faster than the floor, even with a delay of 0, and takes a new delay from the next wait', async () => {
    const { session, farm, actions, config } = setup({ delay: 0 });
    farm.toggle(session);
    farm.punched(session, 5, 5);
    await advance(MIN_AUTOFARM_DELAY_MS * 3);
    assert.deepEqual(
      actions.map((a) => a.at),
      [MIN_AUTOFARM_DELAY_MS, MIN_AUTOFARM_DELAY_MS * 2, MIN_AUTOFARM_DELAY_MS * 3],
    );
    config.delay = 500; // a reload
    await advance(1000);
    const gaps = actions.slice(3).map((a, i) => a.at - (actions[i + 2] as { at: number }).at);
    // The wait already begun keeps its length; every wait after it takes the new delay.
    assert.deepEqual(gaps, [MIN_AUTOFARM_DELAY_MS, 500]);
  });

  it('stops when an action is refused, when turned off, and picks no tile until turned on', async () => {
    const refused = setup({ delay: 200, refuseAfter: 1 });
    refused.farm.toggle(refused.session);
    refused.farm.punched(refused.session, 5, 5);
    await advance(1000);
    assert.equal(refused.actions.length, 1);
    assert.match(refused.messages.at(-1) ?? '', /Autofarm stopped:.*out of reach/);
    assert.equal(refused.session.autofarm, undefined);

    const off = setup({ delay: 200 });
    off.farm.punched(off.session, 5, 5); // not on: a punch is only a punch
    await advance(1000);
    assert.equal(off.actions.length, 0);
    off.farm.toggle(off.session);
    off.farm.punched(off.session, 5, 5);
    await advance(200);
    assert.equal(off.farm.toggle(off.session), false, 'turned off');
    await advance(1000);
    assert.equal(off.actions.length, 1, 'nothing after it was turned off');
  });
});
