import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idempotencyCodes } from '@canopy/contract';
import { createApiClient, isMutating, newIdempotencyKey, type TokenStore } from '../src/lib/api-client.ts';

type Answer = { status: number; body?: unknown };

/** A fetch that plays back answers in order and records each call's method, url and key. */
function recordingClient(answers: Answer[]) {
  const calls: { url: string; method: string; key: string | undefined }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ url: String(input), method: init?.method ?? 'GET', key: headers['Idempotency-Key'] });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected call to ${String(input)}`);
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), { status: next.status });
  };
  let stored = { sessionToken: 's1', refreshToken: 'r1' };
  const tokens: TokenStore = {
    getSessionToken: () => stored.sessionToken,
    readStoredTokens: async () => stored,
    setTokens: async (t) => {
      stored = { ...t };
    },
  };
  const api = createApiClient({ fetch: fetch as typeof globalThis.fetch, tokens, sleep: async () => {} });
  return { api, calls };
}

const keyAt = (calls: { key: string | undefined }[], i: number) => calls[i]?.key;

describe('Idempotency-Key on mutating requests', () => {
  it('sends one key for every retry of one action, and none on reads', async () => {
    const { api, calls } = recordingClient([{ status: 503 }, { status: 502 }, { status: 201, body: { ok: true } }]);
    assert.deepEqual(await api.post('/users/1/server', { serverName: 'A' }), { ok: true });
    assert.equal(calls.length, 3);
    assert.match(keyAt(calls, 0) ?? '', /^[0-9a-f]{32}$/);
    assert.equal(keyAt(calls, 1), keyAt(calls, 0));
    assert.equal(keyAt(calls, 2), keyAt(calls, 0));

    const read = recordingClient([{ status: 200, body: {} }]);
    await read.api.get('/status');
    assert.equal(keyAt(read.calls, 0), undefined);
  });

  it('gives each action its own key, for every mutating method', async () => {
    const { api, calls } = recordingClient(Array.from({ length: 4 }, () => ({ status: 200, body: {} })));
    await api.post('/a', {});
    await api.post('/a', {});
    await api.request('/b', { method: 'PUT', body: {} });
    await api.delete('/c');
    const keys = calls.map((c) => c.key);
    assert.ok(keys.every((k) => typeof k === 'string' && k.length === 32));
    assert.equal(new Set(keys).size, 4);
    assert.deepEqual(['POST', 'PUT', 'PATCH', 'DELETE', 'GET'].map(isMutating), [true, true, true, true, false]);
  });

  it('keeps the key when the action is sent again after a refresh', async () => {
    const { api, calls } = recordingClient([
      { status: 401, body: { error: 'Session expired.', code: 'session_expired' } },
      { status: 200, body: { sessionToken: 's2', refreshToken: 'r2' } },
      { status: 200, body: { done: 1 } },
    ]);
    assert.deepEqual(await api.post('/users/1/server/s/start'), { done: 1 });
    assert.equal(calls[1]?.url, '/auth/refresh');
    assert.equal(keyAt(calls, 2), keyAt(calls, 0));
    assert.notEqual(keyAt(calls, 1), keyAt(calls, 0), 'the refresh is an action of its own');
  });

  it('retries while the api is still running the same action, but not other conflicts', async () => {
    const inFlight = { status: 409, body: { error: 'still running', code: idempotencyCodes.inFlight } };
    const { api, calls } = recordingClient([inFlight, inFlight, { status: 201, body: { id: 'x' } }]);
    assert.deepEqual(await api.post('/users/1/server', { serverName: 'A' }), { id: 'x' });
    assert.equal(calls.length, 3);
    assert.equal(new Set(calls.map((c) => c.key)).size, 1);

    const taken = recordingClient([{ status: 409, body: { error: 'This server name is already taken.', code: 'x' } }]);
    await assert.rejects(taken.api.post('/users/1/server', { serverName: 'A' }), /already taken/);
    assert.equal(taken.calls.length, 1);
  });

  it('makes distinct random keys', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    assert.equal(keys.size, 100);
  });
});
