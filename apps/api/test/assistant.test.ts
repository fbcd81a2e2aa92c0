import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  ASSISTANT_HISTORY_MAX,
  ASSISTANT_HISTORY_TEXT_MAX,
  ASSISTANT_MESSAGE_MAX,
  ASSISTANT_RATE_LIMIT,
  assistantMessages as a,
  chatResponseSchema,
  hostingMessages,
  messages,
} from '@canopy/contract';
import { ASSISTANT_BODY_LIMIT } from '../src/assistant/body-limit.ts';
import { ownerWithServer, signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const ask = (api: TestApi, token: string | undefined, body: unknown) =>
  api.request('POST', '/ai/chat', { token, body });

describeEachDatabase('SkyHelper with the offline helper', (api) => {
  let owner: Session;
  let server = '';

  before(async () => {
    server = `sky${api().dialect[0]}${process.pid % 10000}`;
    owner = await ownerWithServer(api(), server);
  });

  it("answers why Start is disabled from the caller's live state, and says it is the offline helper", async () => {
    await sql(api(), 'UPDATE users SET storage_limit_mb = 0 WHERE id = ?', [owner.user.id]);
    try {
      const res = await ask(api(), owner.sessionToken, { history: [], message: "Why can't I start my server?" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { message } = chatResponseSchema.parse(res.body);
      assert.equal(message.role, 'model');
      assert.match(message.text, new RegExp(`Your server ${server} is OFFLINE`));
      assert.match(message.text, /Start is disabled because .*storage is full \([\d.]+MB of 0MB\)/);
      assert.ok(message.text.includes(a.offlineDisclaimer));
    } finally {
      await sql(api(), 'UPDATE users SET storage_limit_mb = 256 WHERE id = ?', [owner.user.id]);
    }
    // With room again, nothing blocks Start.
    const res = await ask(api(), owner.sessionToken, { message: "Why can't I start my server?" });
    assert.match(res.body.message.text, /Nothing blocks Start right now/);
  });

  it('refuses a question without a signed-in caller (401) and from an unregistered user (403)', async () => {
    const anonymous = await ask(api(), undefined, { history: [], message: 'hello' });
    assert.equal(anonymous.status, 401);
    const unregistered = await signIn(api());
    const refused = await ask(api(), unregistered.sessionToken, { history: [], message: 'hello' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, messages.notRegistered);
    // Refused before the body is read: a bad body gets the same 403, not a 400.
    assert.equal((await ask(api(), unregistered.sessionToken, { message: '' })).status, 403);
  });

  it('refuses questions and histories past their bounds with a clear 400', async () => {
    const t = owner.sessionToken;
    const cases: [unknown, string][] = [
      [{ history: [], message: '   ' }, a.messageRequired],
      [{ history: [], message: 'x'.repeat(ASSISTANT_MESSAGE_MAX + 1) }, a.messageTooLong],
      [
        {
          history: Array.from({ length: ASSISTANT_HISTORY_MAX + 1 }, () => ({ role: 'user', text: 'hi' })),
          message: 'q',
        },
        a.historyTooLong,
      ],
      [
        { history: [{ role: 'user', text: 'x'.repeat(ASSISTANT_HISTORY_TEXT_MAX + 1) }], message: 'q' },
        a.historyTextTooLong,
      ],
      [{ history: [{ role: 'assistant', text: 'hi' }], message: 'q' }, a.badRole],
    ];
    for (const [body, error] of cases) {
      const res = await ask(api(), t, body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.ok(String(res.body.error).includes(error), `${res.body.error} should include ${error}`);
    }
    // The longest legitimate request passes, and a message at the limit is accepted after trimming.
    const full = {
      history: Array.from({ length: ASSISTANT_HISTORY_MAX }, (_, i) => ({
        role: i % 2 ? 'model' : 'user',
        text: 'é'.repeat(ASSISTANT_HISTORY_TEXT_MAX),
      })),
      message: ` ${'y'.repeat(ASSISTANT_MESSAGE_MAX)} `,
    };
    assert.equal((await ask(api(), t, full)).status, 200);
    // A body past the route's limit is refused before it is parsed.
    const huge = await api().request('POST', '/ai/chat', {
      token: t,
      body: { history: [], message: 'q', pad: 'x'.repeat(ASSISTANT_BODY_LIMIT) },
    });
    assert.equal(huge.status, 413);
  });

  it(`limits each user to ${ASSISTANT_RATE_LIMIT.max} questions a minute, counted before the body`, async () => {
    const s = await signInRegistered(api());
    for (let i = 0; i < ASSISTANT_RATE_LIMIT.max; i++) assert.equal((await ask(api(), s.sessionToken, {})).status, 400);
    const limited = await ask(api(), s.sessionToken, { history: [], message: 'How do I start my server?' });
    assert.equal(limited.status, 429);
    assert.match(limited.body.error, /Too many requests/);
    // Another user is not affected.
    assert.equal((await ask(api(), owner.sessionToken, { message: 'hello' })).status, 200);
  });

  it("a collaborator without server:actions is told so, with the owner's server", async () => {
    const collaborator = await signInRegistered(api());
    const added = await api().request('POST', `/users/${owner.user.id}/server/collaborators`, {
      token: owner.sessionToken,
      body: { discordId: collaborator.user.id, permissions: ['worlds:manage'] },
    });
    assert.ok([200, 201].includes(added.status), JSON.stringify(added.body));
    const res = await ask(api(), collaborator.sessionToken, { message: 'Why is the start button disabled?' });
    assert.equal(res.status, 200);
    assert.match(res.body.message.text, new RegExp(`The server you collaborate on, ${server}, is OFFLINE`));
    assert.match(res.body.message.text, /collaborator without the server:actions permission/);
    assert.doesNotMatch(res.body.message.text, new RegExp(hostingMessages.bannedActions));
  });
});

describeEachDatabase(
  'SkyHelper and the Setup Guide give the same setup',
  (api) => {
    it('a hostname game address: the hosts lines and URLs are the Setup Guide page’s', async () => {
      const user = await signInRegistered(api());
      const guide = await api().request('GET', '/setup-guide', { token: user.sessionToken });
      assert.equal(guide.status, 200, JSON.stringify(guide.body));
      const res = await ask(api(), user.sessionToken, { message: 'How do I connect on Windows, Android and iOS?' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const text: string = res.body.message.text;
      assert.ok(guide.body.hostsLines.length > 0);
      for (const line of guide.body.hostsLines) assert.ok(text.includes(line), `${line} in ${text}`);
      assert.ok(text.includes(guide.body.tunnelUrl), text);
      assert.ok(text.includes(guide.body.surgeUrl), text);
    });
  },
  { CANOPY_PUBLIC_URL: 'https://panel.example.test', CANOPY_PUBLIC_IP: 'localhost' },
);
