import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assistantMessages as a, chatResponseSchema } from '@canopy/contract';
import { DEFAULT_MODELS } from '../src/assistant/providers.ts';
import { dialects } from './support/databases.ts';
import { ownerWithServer, type signInRegistered } from './support/factories.ts';
import { type FakeAiServer, startFakeAi } from './support/fake-ai.ts';
import { startApi, type TestApi } from './support/harness.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const ask = (api: TestApi, s: Session, body: unknown) =>
  api.request('POST', '/ai/chat', { token: s.sessionToken, body });

const history = [
  { role: 'user', text: 'First question' },
  { role: 'model', text: 'First answer' },
  { role: 'user', text: 'Second question' },
  { role: 'model', text: 'Second answer' },
] as const;

/** An api on `dialect` whose SkyHelper talks to a fake provider, with two users who own servers. */
function withProvider(provider: 'gemini' | 'openai', dialect: (typeof dialects)[number], env: Record<string, string>) {
  const t = {} as {
    fake: FakeAiServer;
    api: TestApi;
    alice: Session;
    bob: Session;
    aliceServer: string;
    bobServer: string;
  };
  before(async () => {
    t.fake = await startFakeAi(provider);
    t.api = await startApi(dialect, {
      CANOPY_AI_PROVIDER: provider,
      CANOPY_AI_BASE_URL: provider === 'openai' ? `${t.fake.url}/v1` : t.fake.url,
      ...env,
    });
    const tag = `${provider[0]}${dialect[0]}${process.pid % 1000}`;
    t.aliceServer = `Alice_${tag}`;
    t.bobServer = `Bob_${tag}`;
    t.alice = await ownerWithServer(t.api, t.aliceServer);
    t.bob = await ownerWithServer(t.api, t.bobServer);
  });
  after(async () => {
    await t.api?.close();
    await t.fake?.stop();
  });
  return t;
}

/** Asserts the prompt holds Alice's data and nothing of Bob's. */
function assertOnlyAlice(prompt: string, t: ReturnType<typeof withProvider>) {
  assert.ok(prompt.includes(t.aliceServer), 'the prompt names the caller’s server');
  assert.ok(prompt.includes(t.alice.growId), 'the prompt names the caller’s GrowID');
  assert.ok(prompt.includes('status OFFLINE'), 'the prompt holds the live status');
  for (const other of [t.bobServer, t.bob.growId, t.bob.user.id, t.bob.user.username])
    assert.ok(!prompt.includes(other), `the prompt must not hold another user's ${other}`);
}

for (const dialect of dialects) {
  describe(`SkyHelper with Gemini [${dialect}]`, () => {
    const t = withProvider('gemini', dialect, { CANOPY_AI_API_KEY: 'gemini-test-key', CANOPY_AI_MODEL: 'gemini-test' });

    it("sends Gemini's request shape and answers with the model's text", async () => {
      t.fake.decide = () => ({ kind: 'reply', text: 'Press Start on the Dashboard.' });
      const res = await ask(t.api, t.alice, { history, message: '  How do I start?  ' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(chatResponseSchema.parse(res.body), {
        message: { role: 'model', text: 'Press Start on the Dashboard.' },
      });
      const sent = t.fake.last();
      assert.equal(sent.path, '/v1beta/models/gemini-test:generateContent');
      assert.equal(sent.headers['x-goog-api-key'], 'gemini-test-key');
      assert.deepEqual(
        sent.body.contents.map((c: { role: string; parts: { text: string }[] }) => [c.role, c.parts[0]?.text]),
        [...history.map((m) => [m.role, m.text]), ['user', 'How do I start?']],
      );
      const system = sent.body.systemInstruction.parts[0].text as string;
      assert.match(system, /You are SkyHelper/);
      assert.match(system, /3-day grace period/);
      assertOnlyAlice(system, t);
    });

    it('turns a provider error into 502 with the spec text, without its details', async () => {
      t.fake.decide = () => ({ kind: 'error', status: 500 });
      const res = await ask(t.api, t.alice, { history: [], message: 'hello' });
      assert.equal(res.status, 502);
      assert.equal(res.body.error, a.failed);
      assert.doesNotMatch(JSON.stringify(res.body), /secret-internal-detail|gemini-test-key/);
    });
  });

  describe(`SkyHelper with an OpenAI-compatible endpoint [${dialect}]`, () => {
    // A short timeout for the test of a provider that never answers; the fake answers at once otherwise. Not
    // shorter: the answering cases and the hung request's arrival must fit inside it on a busy machine.
    const t = withProvider('openai', dialect, { CANOPY_AI_TIMEOUT_MS: '3000' });

    it("sends OpenAI's request shape (system message, assistant role) and answers with the content", async () => {
      t.fake.decide = () => ({ kind: 'reply', text: 'Open the Setup Guide.' });
      const res = await ask(t.api, t.alice, { history, message: 'How do I connect?' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { message: { role: 'model', text: 'Open the Setup Guide.' } });
      const sent = t.fake.last();
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.body.model, DEFAULT_MODELS.openai);
      // No key configured (a local server): the package still sends one, a placeholder.
      assert.equal(sent.headers.authorization, 'Bearer none');
      const roles = sent.body.messages.map((m: { role: string; content: string }) => [m.role, m.content]);
      assert.equal(roles[0][0], 'system');
      assert.deepEqual(roles.slice(1), [
        ['user', 'First question'],
        ['assistant', 'First answer'],
        ['user', 'Second question'],
        ['assistant', 'Second answer'],
        ['user', 'How do I connect?'],
      ]);
      assertOnlyAlice(roles[0][1], t);
    });

    it("Bob's prompt holds Bob's data and nothing of Alice's", async () => {
      t.fake.decide = () => ({ kind: 'reply', text: 'ok' });
      assert.equal((await ask(t.api, t.bob, { history: [], message: 'status?' })).status, 200);
      const prompt = t.fake.last().body.messages[0].content as string;
      assert.ok(prompt.includes(t.bobServer) && prompt.includes(t.bob.growId));
      for (const other of [t.aliceServer, t.alice.growId, t.alice.user.id])
        assert.ok(!prompt.includes(other), `Bob's prompt must not hold ${other}`);
    });

    it('turns a provider error, an empty answer and a provider that never answers into 502', async () => {
      t.fake.decide = () => ({ kind: 'error', status: 500 });
      const failed = await ask(t.api, t.alice, { history: [], message: 'hello' });
      assert.equal(failed.status, 502);
      assert.deepEqual(failed.body, { error: a.failed, code: 'ai_failed' });

      t.fake.decide = () => ({ kind: 'reply', text: '' });
      assert.equal((await ask(t.api, t.alice, { history: [], message: 'hello' })).status, 502);

      t.fake.decide = () => ({ kind: 'hang' });
      const before = t.fake.received.length;
      const hung = await ask(t.api, t.alice, { history: [], message: 'hello' });
      assert.equal(hung.status, 502);
      assert.equal(hung.body.error, a.failed);
      assert.equal(t.fake.received.length, before + 1, 'one attempt, no retries');
    });
  });
}
