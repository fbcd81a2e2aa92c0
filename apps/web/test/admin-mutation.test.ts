import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { adminPanelMessages } from '@canopy/contract';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { adminMutationOptions } from '../src/features/admin/api/admin-mutation-options.ts';
import { postBannedServer } from '../src/features/admin/bans/api/banned-servers-api.ts';

// Issue 21, item 14: the add-ban form toasted '! [object Object]' for a refusal without an 'error' field, as
// TanStack Query handed its function context to postBannedServer's optional fallback parameter.

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Runs one admin write through TanStack Query as the panel does, and returns the toasts it showed. */
async function run<TVars, TAnswer>(mutationFn: (vars: TVars) => Promise<TAnswer>, vars: TVars, fallback: string) {
  const client = new QueryClient();
  const toasts: [string, string][] = [];
  const toast = {
    success: (text: string) => toasts.push(['success', text]),
    error: (text: string) => toasts.push(['error', text]),
  };
  const observer = new MutationObserver(
    client,
    adminMutationOptions({ mutationFn, success: () => 'done', fallback, invalidate: [] }, client, toast),
  );
  await observer.mutate(vars).catch(() => {});
  client.clear();
  return toasts;
}

describe('admin writes (useAdminMutation)', () => {
  it("toasts 'Failed to add ban.' when the add-ban answer has no 'error' field", async () => {
    globalThis.fetch = async () => new Response(JSON.stringify({ detail: 'nope' }), { status: 400 });
    const toasts = await run(postBannedServer, { serverName: 'Griefers', reason: 'spam' }, adminPanelMessages.addBan);
    assert.deepEqual(toasts, [['error', adminPanelMessages.addBan]]);
  });

  it("toasts the answer's 'error' when it has one", async () => {
    globalThis.fetch = async () =>
      new Response(JSON.stringify({ error: 'This server name is already banned.' }), { status: 409 });
    const toasts = await run(postBannedServer, { serverName: 'Griefers', reason: 'spam' }, adminPanelMessages.addBan);
    assert.deepEqual(toasts, [['error', 'This server name is already banned.']]);
  });

  it('hands the call the variables only, whatever optional parameters it has', async () => {
    const seen: unknown[][] = [];
    const call = (...args: unknown[]) => {
      seen.push(args);
      return Promise.resolve({ message: 'ok' });
    };
    const toasts = await run(call, 'x', 'Action failed.');
    assert.deepEqual(seen, [['x']]);
    assert.deepEqual(toasts, [['success', 'done']]);
  });
});
