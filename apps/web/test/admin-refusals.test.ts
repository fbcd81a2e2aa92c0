import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { watchAdminRefusals } from '../src/features/admin/api/admin-refusals.ts';
import { ApiError } from '../src/lib/api-client.ts';

// Issue 21, item 14: an admin removed while the panel is open must leave it. The api refuses their calls (403);
// each refusal makes the profile reload, whose answer (no longer an admin) sends them away.

const refused = new ApiError(403, 'Forbidden', 'You do not have permission to view this page.');

/** Counts the refusals the watcher reports while `work` runs against a fresh client. */
async function refusalsDuring(work: (client: QueryClient) => Promise<unknown>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let count = 0;
  const stop = watchAdminRefusals(client, () => {
    count += 1;
  });
  await work(client).catch(() => {});
  stop();
  client.clear();
  return count;
}

const fail = (error: unknown) => () => Promise.reject(error);

describe('watchAdminRefusals', () => {
  it('reports a refused admin query and a refused write', async () => {
    assert.equal(
      await refusalsDuring((c) => c.fetchQuery({ queryKey: ['admin', 'users', 1, ''], queryFn: fail(refused) })),
      1,
    );
    assert.equal(
      await refusalsDuring((c) => new MutationObserver(c, { mutationFn: fail(refused) }).mutate(undefined)),
      1,
    );
  });

  it('ignores other failures, refusals of non-admin queries, and successes', async () => {
    const count = await refusalsDuring(async (c) => {
      await c
        .fetchQuery({ queryKey: ['admin', 'stats'], queryFn: fail(new ApiError(500, 'S500', 'boom')) })
        .catch(() => {});
      await c.fetchQuery({ queryKey: ['admin', 'logs'], queryFn: fail(new Error('offline')) }).catch(() => {});
      await c.fetchQuery({ queryKey: ['profile', 'u1'], queryFn: fail(refused) }).catch(() => {});
      await c.fetchQuery({ queryKey: ['admin', 'settings'], queryFn: () => Promise.resolve({}) });
      await new MutationObserver(c, { mutationFn: fail(new ApiError(409, 'S409', 'taken')) })
        .mutate(undefined)
        .catch(() => {});
    });
    assert.equal(count, 0);
  });

  it('stops reporting once unsubscribed', async () => {
    const client = new QueryClient();
    let count = 0;
    watchAdminRefusals(client, () => {
      count += 1;
    })();
    await client.fetchQuery({ queryKey: ['admin', 'users'], queryFn: fail(refused) }).catch(() => {});
    assert.equal(count, 0);
    client.clear();
  });
});
