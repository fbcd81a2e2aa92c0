import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '@canopy/contract';
import { ApiError, createApiClient, isRetryableAnswer, retryDelayMs, type TokenStore } from '../src/lib/api-client.ts';

type Answer = { status: number; body?: unknown } | 'network-error';

/** A fetch that plays back the given answers in order and records each call. */
function fakeFetch(answers: Answer[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const next = answers.shift();
    if (next === undefined) throw new Error(`unexpected call to ${String(input)}`);
    if (next === 'network-error') throw new TypeError('fetch failed');
    const text = next.body === undefined ? '' : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    return new Response(text === '' ? null : text, { status: next.status, statusText: `S${next.status}` });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

/** An in-memory token store. */
function memoryTokens(sessionToken: string | null, refreshToken = 'r1') {
  let stored = sessionToken ? { sessionToken, refreshToken } : null;
  const writes: string[] = [];
  const tokens: TokenStore = {
    getSessionToken: () => stored?.sessionToken ?? null,
    readStoredTokens: async () => stored,
    setTokens: async (t) => {
      stored = { ...t };
      writes.push(t.sessionToken);
    },
  };
  return { tokens, writes };
}

/** The i-th item, failing the test when it is missing. */
function at<T>(list: readonly T[], i: number): T {
  const item = list[i];
  if (item === undefined) throw new Error(`no item ${i}`);
  return item;
}

const authHeader = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

function client(answers: Answer[], sessionToken: string | null = 's1') {
  const { fetch, calls } = fakeFetch(answers);
  const { tokens, writes } = memoryTokens(sessionToken);
  const delays: number[] = [];
  let authErrors = 0;
  const api = createApiClient({
    fetch,
    tokens,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onAuthError: () => {
      authErrors++;
    },
  });
  return { api, calls, delays, writes, authErrors: () => authErrors };
}

describe('retry decision', () => {
  it("retries 429 and a proxy's 502-504 only; the api's own answers are final", () => {
    for (const status of [502, 503, 504]) {
      assert.equal(isRetryableAnswer(status, false), true, `${status} from a proxy`);
      assert.equal(isRetryableAnswer(status, true), false, `${status} from the api`);
    }
    assert.equal(isRetryableAnswer(429, true), true);
    for (const status of [400, 401, 403, 404, 409, 422, 500, 501, 507])
      for (const fromApi of [true, false]) assert.equal(isRetryableAnswer(status, fromApi), false, `${status}`);
  });
  it('doubles the delay from the base', () => {
    assert.deepEqual(
      [0, 1, 2].map((a) => retryDelayMs(a, 1000)),
      [1000, 2000, 4000],
    );
  });
});

describe('createApiClient', () => {
  it('sends JSON with the bearer header and parses the body', async () => {
    const t = client([{ status: 200, body: { a: 1 } }]);
    assert.deepEqual(await t.api.post('/x', { b: 2 }), { a: 1 });
    assert.equal(authHeader(at(t.calls, 0).init), 'Bearer s1');
    assert.equal(at(t.calls, 0).init.body, '{"b":2}');
    assert.equal((at(t.calls, 0).init.headers as Record<string, string>)['Content-Type'], 'application/json');
  });

  it('omits the bearer header for public calls', async () => {
    const t = client([{ status: 200, body: {} }]);
    await t.api.get('/status', { auth: false });
    assert.equal(authHeader(at(t.calls, 0).init), undefined);
  });

  it('retries 5xx, 429 and network failures with doubling delays, then succeeds', async () => {
    const t = client([{ status: 502 }, 'network-error', { status: 429 }, { status: 200, body: { ok: true } }]);
    assert.deepEqual(await t.api.get('/x'), { ok: true });
    assert.equal(t.calls.length, 4);
    assert.deepEqual(t.delays, [1000, 2000, 4000]);
  });

  it('gives up after 3 retries with the last error body', async () => {
    const t = client([{ status: 502 }, { status: 503 }, { status: 504 }, { status: 502, body: { error: 'boom' } }]);
    await assert.rejects(t.api.get('/x'), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 502);
      assert.equal(e.message, 'boom');
      return true;
    });
    assert.equal(t.calls.length, 4);
  });

  it("shows the api's own 5xx at once: a frozen engine, a stopped one, an internal error", async () => {
    for (const answer of [
      {
        status: 504,
        body: { error: 'The server did not answer in time. Try again, or restart it.', code: 'engine_timeout' },
      },
      { status: 502, body: { error: 'The server did not answer. Please try again.', code: 'engine_unavailable' } },
      { status: 500, body: { error: 'Internal server error.', code: 'internal' } },
      { status: 500 },
    ]) {
      const t = client([answer]);
      await assert.rejects(t.api.get('/x'), (e: unknown) => e instanceof ApiError && e.status === answer.status);
      assert.equal(t.calls.length, 1, JSON.stringify(answer));
      assert.deepEqual(t.delays, []);
    }
  });

  it("shows the api's 503 for a database outage with its text, and not as maintenance", async () => {
    const t = client([{ status: 503, body: { error: messages.unavailable, code: 'unavailable' } }]);
    await assert.rejects(
      t.api.get('/x'),
      (e: unknown) =>
        e instanceof ApiError && e.status === 503 && e.code === 'unavailable' && e.message === messages.unavailable,
    );
    assert.equal(t.calls.length, 1);
    assert.doesNotMatch(messages.unavailable, /maintenance/i, 'a 503 naming maintenance would turn the panel off');
  });

  it('makes one attempt when asked not to retry (a live validation)', async () => {
    const t = client(['network-error']);
    await assert.rejects(t.api.get('/x', { retry: false }), (e: unknown) => e instanceof ApiError && e.status === 0);
    const proxied = client([{ status: 502, body: '<html>Bad Gateway</html>' }]);
    await assert.rejects(proxied.api.get('/x', { retry: false }), (e: unknown) => e instanceof ApiError);
    assert.equal(t.calls.length + proxied.calls.length, 2);
    assert.deepEqual([...t.delays, ...proxied.delays], []);
  });

  it('reports a network failure as status 0 after the retries', async () => {
    const t = client(['network-error', 'network-error', 'network-error', 'network-error']);
    await assert.rejects(
      t.api.get('/x'),
      (e: unknown) => e instanceof ApiError && e.status === 0 && e.code === 'network',
    );
    assert.equal(t.calls.length, 4);
  });

  it('does not retry a 4xx', async () => {
    const t = client([{ status: 404, body: { error: 'User is not registered.' } }]);
    await assert.rejects(t.api.get('/x'), (e: unknown) => e instanceof ApiError && e.status === 404);
    assert.equal(t.calls.length, 1);
    assert.deepEqual(t.delays, []);
  });

  it('does not retry a maintenance 503', async () => {
    const t = client([{ status: 503, body: { error: 'The panel is under maintenance.', code: 'maintenance' } }]);
    await assert.rejects(t.api.get('/x'), (e: unknown) => e instanceof ApiError && e.code === 'maintenance');
    assert.equal(t.calls.length, 1);
  });

  it('uses the default error text when the body has no error field', async () => {
    const t = client([{ status: 400, body: 'not json' }]);
    const defaultError = (a: { statusText: string; bodyIsJson: boolean }) => `${a.statusText}/${a.bodyIsJson}`;
    await assert.rejects(t.api.post('/x', {}, { defaultError }), { message: 'S400/false' });
  });

  it('rejects a success body that does not match the schema', async () => {
    const t = client([{ status: 200, body: { nope: 1 } }]);
    const schema = { safeParse: () => ({ success: false as const }) };
    await assert.rejects(
      t.api.get('/x', { schema }),
      (e: unknown) => e instanceof ApiError && e.code === 'invalid_response',
    );
  });

  it('refreshes once on 401, stores the rotated tokens and replays', async () => {
    const t = client([
      { status: 401, body: { error: 'expired' } },
      { status: 200, body: { sessionToken: 's2', refreshToken: 'r2' } },
      { status: 200, body: { fine: true } },
    ]);
    assert.deepEqual(await t.api.get('/x'), { fine: true });
    assert.equal(at(t.calls, 1).url, '/auth/refresh');
    assert.equal(at(t.calls, 1).init.body, '{"refreshToken":"r1"}');
    assert.equal(authHeader(at(t.calls, 1).init), undefined);
    assert.equal(authHeader(at(t.calls, 2).init), 'Bearer s2');
    assert.deepEqual(t.writes, ['s2']);
    assert.equal(t.authErrors(), 0);
  });

  it('raises auth-error when the refresh fails', async () => {
    const t = client([{ status: 401 }, { status: 401, body: { error: 'Invalid or expired refresh token.' } }]);
    await assert.rejects(t.api.get('/x'), (e: unknown) => e instanceof ApiError && e.status === 401);
    assert.equal(t.authErrors(), 1);
    assert.equal(t.calls.length, 2);
  });

  it('raises auth-error when the replay is refused again', async () => {
    const t = client([
      { status: 401 },
      { status: 200, body: { sessionToken: 's2', refreshToken: 'r2' } },
      { status: 401 },
    ]);
    await assert.rejects(t.api.get('/x'));
    assert.equal(t.authErrors(), 1);
  });

  it('does not refresh or raise auth-error on 401 without a token', async () => {
    const t = client([{ status: 401, body: { error: 'User not authenticated.' } }], null);
    await assert.rejects(t.api.get('/x'), { message: 'User not authenticated.' });
    assert.equal(t.calls.length, 1);
    assert.equal(t.authErrors(), 0);
  });

  it('shares one refresh between concurrent 401s', async () => {
    const t = client([
      { status: 401 },
      { status: 401 },
      { status: 200, body: { sessionToken: 's2', refreshToken: 'r2' } },
      { status: 200, body: 1 },
      { status: 200, body: 2 },
    ]);
    const results = await Promise.all([t.api.get('/a'), t.api.get('/b')]);
    assert.deepEqual(results.sort(), [1, 2]);
    assert.equal(t.calls.filter((c) => c.url === '/auth/refresh').length, 1);
    assert.deepEqual(t.writes, ['s2']);
  });
});

describe('refreshSession', () => {
  it('rotates the tokens on demand', async () => {
    const t = client([{ status: 200, body: { sessionToken: 's2', refreshToken: 'r2' } }]);
    assert.equal(await t.api.refreshSession('s1'), true);
    assert.equal(at(t.calls, 0).url, '/auth/refresh');
    assert.deepEqual(t.writes, ['s2']);
    assert.equal(t.authErrors(), 0);
  });

  it('spends nothing when the failed token was already replaced', async () => {
    const t = client([]);
    assert.equal(await t.api.refreshSession('s0'), true);
    assert.equal(t.calls.length, 0);
  });

  it('raises auth-error when the refresh is refused', async () => {
    const t = client([{ status: 401, body: { error: 'Invalid or expired refresh token.' } }]);
    assert.equal(await t.api.refreshSession(), false);
    assert.equal(t.authErrors(), 1);
  });

  it('does nothing without a session', async () => {
    const t = client([], null);
    assert.equal(await t.api.refreshSession(), false);
    assert.equal(t.calls.length, 0);
    assert.equal(t.authErrors(), 0);
  });
});
