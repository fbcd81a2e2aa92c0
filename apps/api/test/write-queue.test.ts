import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_WAITING_WRITES, WriteQueue } from '../src/server-data/write-queue.ts';

describe('WriteQueue', () => {
  it("runs one server's writes one at a time, in order, and other servers' beside them", async () => {
    const queue = new WriteQueue();
    const order: string[] = [];
    const first = await queue.enter('a');
    const second = queue.enter('a').then((release) => {
      order.push('second');
      return release;
    });
    const other = await queue.enter('b'); // another server does not wait
    order.push('other');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ['other'], 'the second write waits for the first');
    first();
    (await second)();
    other();
    assert.deepEqual(order, ['other', 'second']);
    (await queue.enter('a'))(); // the line is free again
  });

  it('refuses with 429 past the bounded line, and admits again once it moves', async () => {
    const queue = new WriteQueue();
    const running = await queue.enter('a');
    const waiting = Array.from({ length: MAX_WAITING_WRITES }, () => queue.enter('a'));
    await assert.rejects(queue.enter('a'), { status: 429, code: 'writes_queued' });
    running();
    const [first, ...rest] = waiting;
    const next = await first;
    const late = queue.enter('a'); // one place came free
    next?.();
    for (const w of rest) (await w)();
    (await late)();
  });

  it('a release called twice frees one turn only', async () => {
    const queue = new WriteQueue();
    const first = await queue.enter('a');
    const second = queue.enter('a');
    const third = queue.enter('a');
    first();
    first();
    const releaseSecond = await second;
    let thirdRan = false;
    void third.then(() => {
      thirdRan = true;
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(thirdRan, false);
    releaseSecond();
    (await third)();
  });
});
