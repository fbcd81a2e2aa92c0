import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Task, TaskAnswer } from '../src/workers/tasks.ts';
import { TENANT_IN_POOL, TENANT_WAITING, WorkerPool, workerPoolMessages } from '../src/workers/worker-pool.ts';

/** A pool whose tasks finish when the test says so; `started` lists the tasks that reached a thread, in order. */
function heldPool() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const pool = new WorkerPool((task: Task) => {
    const name = Buffer.from(task.bytes).toString();
    started.push(name);
    return new Promise<TaskAnswer>((resolve) => finish.set(name, () => resolve({ ok: true, value: name })));
  });
  const run = (tenant: string, name: string) => pool.run(tenant, { kind: 'world', bytes: Buffer.from(name) });
  const tick = () => new Promise((r) => setImmediate(r));
  return { pool, started, finish: (name: string) => finish.get(name)?.(), run, tick };
}

describe('worker pool: each caller gets its share', () => {
  it('lets one caller have TENANT_IN_POOL tasks in the pool, TENANT_WAITING behind them, and refuses the next', async () => {
    const { started, finish, run, tick } = heldPool();
    const names = Array.from({ length: TENANT_IN_POOL + TENANT_WAITING }, (_, i) => `a${i}`);
    const accepted = names.map((name) => run('alice', name));
    await tick();
    assert.deepEqual(started, names.slice(0, TENANT_IN_POOL));
    await assert.rejects(run('alice', 'one-too-many'), { status: 429, code: 'busy', message: workerPoolMessages.busy });
    // Another caller is not behind alice's line.
    const bob = run('bob', 'b0');
    await tick();
    assert.deepEqual(started, [...names.slice(0, TENANT_IN_POOL), 'b0']);
    finish('b0');
    assert.equal(await bob, 'b0');
    // Alice's waiting tasks go in one by one, in order, as hers finish.
    for (const [i, name] of names.entries()) {
      finish(name);
      assert.equal(await accepted[i], name);
      await tick();
    }
    assert.deepEqual(started, [...names.slice(0, TENANT_IN_POOL), 'b0', ...names.slice(TENANT_IN_POOL)]);
  });

  it('turns a refusal found on the worker into the same 400, and frees the place', async () => {
    const pool = new WorkerPool(async () => ({
      ok: false,
      status: 400,
      code: 'validation',
      message: 'Width is required.',
    }));
    for (let i = 0; i < TENANT_IN_POOL + TENANT_WAITING + 2; i++)
      await assert.rejects(pool.run('alice', { kind: 'world', bytes: Buffer.from('{}') }), {
        status: 400,
        message: 'Width is required.',
      });
  });

  it('refuses a missing body as validate.ts does, without a task', async () => {
    let ran = 0;
    const pool = new WorkerPool(async () => {
      ran++;
      return { ok: true, value: null };
    });
    await assert.rejects(pool.checkBody('alice', 'world', undefined), {
      status: 400,
      message: 'Request body is required.',
    });
    assert.equal(ran, 0);
  });
});
