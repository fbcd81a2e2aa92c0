import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { alertMessages, messages, SERVER_ALERT_EVENTS, serverAlertsSchema } from '@canopy/contract';
import { BASE_BACKOFF_MS } from '../src/alerts/delivery.ts';
import { alertDeps, notifyServer } from '../src/alerts/notify.ts';
import { addCollaborator, ownerWithServer, signInRegistered } from './support/factories.ts';
import { FakeDiscordWebhooks } from './support/fake-discord-webhooks.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { until, untilValue } from './support/until.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const hooks = await new FakeDiscordWebhooks().start();
after(() => hooks.stop());

const RATE = 3;
const call = (api: TestApi, s: Session, method: string, path = '', body?: unknown) =>
  api.request(method, `/users/${s.user.id}/server/alerts${path}`, { token: s.sessionToken, body });

interface QueueRow {
  event: string;
  attempts: number;
  next_at: number | string;
  in_flight: number;
}
const queueOf = (api: TestApi, ownerId: string) =>
  api.ctx.db.all<QueueRow>(
    'SELECT q.event, q.attempts, q.next_at, q.in_flight FROM alert_queue q JOIN servers s ON s.id = q.server_id WHERE s.owner_id = ?',
    [ownerId],
  );

let nextId = 1000;
/** An owner with a server whose webhook (a fresh one on the fake) subscribes to `events`. */
async function ownerWithHook(api: TestApi, events: string[] = ['started']) {
  const owner = await ownerWithServer(api, `al${api.dialect[0]}${nextId}`);
  const url = hooks.webhook(`${process.pid}${nextId++}`);
  const res = await call(api, owner, 'PUT', '', { url, events });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { owner, url };
}

describeEachDatabase(
  'Discord alerts',
  (api) => {
    let owner: Session;
    let url = '';
    before(async () => {
      ({ owner, url } = await ownerWithHook(api(), ['started', 'backup_done']));
    });

    it('shows the webhook as a hint only, and stores it sealed', async () => {
      const res = await call(api(), owner, 'GET');
      assert.equal(res.status, 200);
      const alerts = serverAlertsSchema.parse(res.body);
      assert.deepEqual(alerts.events, ['started', 'backup_done']);
      assert.equal(alerts.configured, true);
      const id = new URL(url).pathname.split('/')[3] ?? '';
      assert.equal(alerts.urlHint, `${hooks.base}${id.slice(0, 4)}…/••••`);
      assert.ok(!JSON.stringify(res.body).includes(url.split('/').at(-1) ?? '?'), 'the token is never sent back');
      const row = await api().ctx.db.get<Record<string, string>>(
        'SELECT h.* FROM server_alert_hooks h JOIN servers s ON s.id = h.server_id WHERE s.owner_id = ?',
        [owner.user.id],
      );
      assert.ok(row?.url_sealed?.startsWith('v1.'));
      assert.ok(
        !Object.values(row ?? {}).some((v) => String(v).includes(url.split('/').at(-1) ?? '?')),
        'no column holds the token',
      );
    });

    it('keeps the stored URL when only the events change', async () => {
      const res = await call(api(), owner, 'PUT', '', { events: ['started', 'backup_done', 'stopped'] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { message: alertMessages.saved });
      const alerts = (await call(api(), owner, 'GET')).body;
      assert.deepEqual(alerts.events, ['started', 'backup_done', 'stopped']);
      assert.equal(alerts.configured, true);
    });

    it('refuses URLs that are not Discord webhooks (nothing changed), and accepts every Discord host', async () => {
      const before = await api().ctx.db.all('SELECT * FROM server_alert_hooks');
      for (const bad of [
        'http://discord.com/api/webhooks/123456789/abcdefghijklmnopqrstuvwxyz',
        'https://discord.com.evil.test/api/webhooks/123456789/abcdefghijklmnopqrstuvwxyz',
        'https://evil.test/api/webhooks/123456789/abcdefghijklmnopqrstuvwxyz',
        'https://discord.com/api/webhooks/123456789/abcdefghijklmnopqrstuvwxyz?x=1',
        'https://discord.com/api/users/@me',
        `${hooks.url}/other/123456/abcdefghijklmnopqrstuvwxyz`,
        'http://169.254.169.254/latest/meta-data',
      ]) {
        const res = await call(api(), owner, 'PUT', '', { url: bad, events: ['started'] });
        assert.equal(res.status, 400, bad);
        assert.equal(res.body.error, alertMessages.badUrl, bad);
      }
      const unknownEvent = await call(api(), owner, 'PUT', '', { url, events: ['everything'] });
      assert.equal(unknownEvent.status, 400);
      assert.deepEqual(await api().ctx.db.all('SELECT * FROM server_alert_hooks'), before);

      // Discord's hosts are accepted (set on a second owner, whose hook then goes away again).
      const other = await ownerWithServer(api(), `alh${api().dialect[0]}${process.pid % 1000}`);
      for (const good of [
        'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_-0123456789',
        'https://discordapp.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_-0123456789',
        'https://canary.discord.com/api/v10/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_-0123456789',
        'https://ptb.discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_-0123456789',
      ]) {
        const res = await call(api(), other, 'PUT', '', { url: good, events: [] });
        assert.equal(res.status, 200, good);
        assert.match((await call(api(), other, 'GET')).body.urlHint, /\/1234…\/••••$/);
      }
      assert.equal((await call(api(), other, 'DELETE')).status, 200);
      const gone = await call(api(), other, 'GET');
      assert.deepEqual(gone.body, { configured: false, urlHint: null, events: [] });
      assert.equal(
        (await call(api(), other, 'PUT', '', { events: ['started'] })).body.error,
        alertMessages.urlRequired,
      );
      assert.equal((await call(api(), other, 'POST', '/test')).status, 404);
    });

    it('is the owner’s alone: collaborators (whatever they hold) and other users are refused', async () => {
      const helper = await signInRegistered(api());
      await addCollaborator(api(), owner.user.id, helper.user.id, ['server:actions', 'config:manage', 'console:use']);
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['PUT', '', { url: hooks.webhook(1), events: ['started'] }],
        ['DELETE', '', undefined],
        ['POST', '/test', undefined],
      ] as const) {
        const res = await call(api(), helper, method, path, body);
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.body.error, alertMessages.onlyOwner);
        // Someone else's id in the path.
        const other = await api().request(method, `/users/${owner.user.id}/server/alerts${path}`, {
          token: helper.sessionToken,
          body,
        });
        assert.equal(other.status, 403);
        assert.equal(other.body.error, messages.missingPermission);
      }
      assert.equal((await api().request('GET', `/users/${owner.user.id}/server/alerts`)).status, 401);
      assert.equal((await call(api(), owner, 'GET')).body.configured, true, 'the hook is still there');
    });

    it('the Test button delivers Discord’s webhook body to the webhook', async () => {
      const res = await call(api(), owner, 'POST', '/test');
      assert.equal(res.status, 202);
      assert.deepEqual(res.body, { message: alertMessages.testQueued });
      await until(() => hooks.postsTo(url).length === 1, 'the test alert');
      const [post] = hooks.postsTo(url);
      assert.equal(post?.body.username, 'Canopy');
      assert.deepEqual(post?.body.allowed_mentions, { parse: [] });
      assert.equal(post?.body.embeds.length, 1);
      assert.match(post?.body.embeds[0].title, /^Test alert: al/);
      assert.equal(typeof post?.body.embeds[0].color, 'number');
      await untilValue(async () => ((await queueOf(api(), owner.user.id)).length === 0 ? true : undefined), 'sent');
    });

    it('waits what a 429 says (retry_after), then sends', async () => {
      const { owner: o, url: u } = await ownerWithHook(api());
      hooks.script(u, [
        { status: 429, body: { message: 'You are being rate limited.', retry_after: 7.5, global: false } },
      ]);
      const at = api().clock.now;
      assert.equal((await call(api(), o, 'POST', '/test')).status, 202);
      const row = await untilValue(async () => {
        const [r] = await queueOf(api(), o.user.id);
        return r && r.in_flight === 0 && Number(r.next_at) > at ? r : undefined;
      }, 'the 429 answered');
      assert.equal(Number(row.next_at), api().clock.now + 7500);
      assert.equal(row.attempts, 0, 'a 429 is not a failure');
      assert.equal(hooks.postsTo(u).length, 1);
      api().clock.now += 7500;
      await until(() => hooks.postsTo(u).length === 2, 'the retry after the wait');
      await untilValue(async () => ((await queueOf(api(), o.user.id)).length === 0 ? true : undefined), 'sent');
    });

    it('backs off exponentially after 5xx answers', async () => {
      const { owner: o, url: u } = await ownerWithHook(api());
      hooks.script(u, [{ status: 500 }, { status: 502 }]);
      const at = api().clock.now;
      assert.equal((await call(api(), o, 'POST', '/test')).status, 202);
      const first = await untilValue(async () => {
        const [r] = await queueOf(api(), o.user.id);
        return r?.attempts === 1 && r.in_flight === 0 ? r : undefined;
      }, 'the first failure');
      assert.equal(Number(first.next_at), at + BASE_BACKOFF_MS);
      api().clock.now += BASE_BACKOFF_MS;
      const second = await untilValue(async () => {
        const [r] = await queueOf(api(), o.user.id);
        return r?.attempts === 2 && r.in_flight === 0 ? r : undefined;
      }, 'the second failure');
      assert.equal(Number(second.next_at), api().clock.now + 2 * BASE_BACKOFF_MS, 'the wait doubled');
      api().clock.now += 2 * BASE_BACKOFF_MS;
      await until(() => hooks.postsTo(u).length === 3, 'the third attempt');
      await untilValue(async () => ((await queueOf(api(), o.user.id)).length === 0 ? true : undefined), 'sent');
    });

    it(`sends at most ${RATE} a minute to one webhook; the rest wait for the next minute`, async () => {
      const { owner: o, url: u } = await ownerWithHook(api());
      for (let i = 0; i < RATE + 1; i++) assert.equal((await call(api(), o, 'POST', '/test')).status, 202);
      await untilValue(async () => {
        const rows = await queueOf(api(), o.user.id);
        return rows.length === 1 && rows[0]?.in_flight === 0 && Number(rows[0].next_at) > api().clock.now
          ? rows
          : undefined;
      }, 'the limit reached');
      assert.equal(hooks.postsTo(u).length, RATE);
      const [waiting] = await queueOf(api(), o.user.id);
      assert.equal(Number(waiting?.next_at) % 60_000, 0, 'it waits for the next minute');
      api().clock.now = Number(waiting?.next_at);
      await until(() => hooks.postsTo(u).length === RATE + 1, 'the last one in the next minute');
    });

    it('sends once more an alert whose sending was cut off (a killed process), and drops one cut off twice', async () => {
      const { owner: o, url: u } = await ownerWithHook(api());
      const hook = await api().ctx.db.get<{ server_id: string; url_sealed: string }>(
        'SELECT h.server_id, h.url_sealed FROM server_alert_hooks h JOIN servers s ON s.id = h.server_id WHERE s.owner_id = ?',
        [o.user.id],
      );
      const row = (id: string, cutOff: number, text: string) =>
        api().ctx.db.run(
          `INSERT INTO alert_queue (id, server_id, destination, url_sealed, event, payload, in_flight, cut_off, next_at, created_at)
           VALUES (?, ?, 'd', ?, 'test', ?, 1, ?, ?, ?)`,
          [
            id,
            hook?.server_id ?? '',
            hook?.url_sealed ?? '',
            JSON.stringify({ content: text }),
            cutOff,
            api().clock.now,
            api().clock.now,
          ],
        );
      // As a process killed during the POST leaves them: in flight, once already cut off or not.
      await row(`${o.user.id}-twice`, 1, 'cut off twice');
      await row(`${o.user.id}-once`, 0, 'cut off once');
      await until(() => hooks.postsTo(u).length === 1, 'the resend');
      await untilValue(async () => ((await queueOf(api(), o.user.id)).length === 0 ? true : undefined), 'both gone');
      assert.deepEqual(
        hooks.postsTo(u).map((p) => p.body.content),
        ['cut off once'],
      );
    });

    it('keeps at most 50 alerts per server, dropping the oldest', async () => {
      const { owner: o, url: u } = await ownerWithHook(api());
      // Every attempt fails, and the clock never reaches the retries: nothing leaves the queue but by the cap.
      hooks.script(
        u,
        Array.from({ length: 100 }, () => ({ status: 503 })),
      );
      const server = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [o.user.id]);
      for (let i = 0; i < 55; i++) {
        api().clock.now += 1;
        await notifyServer(alertDeps(api().ctx), server?.id ?? '', 'test', { serverName: 'x', text: `n${i}` });
      }
      const rows = await queueOf(api(), o.user.id);
      assert.equal(rows.length, 50);
      const texts = await api().ctx.db.all<{ payload: string }>(
        'SELECT payload FROM alert_queue WHERE server_id = ? ORDER BY created_at',
        [server?.id ?? ''],
      );
      assert.match(texts[0]?.payload ?? '', /"description":"n5"/, 'the five oldest were dropped');
      assert.match(texts.at(-1)?.payload ?? '', /"description":"n54"/);
    });
  },
  {
    CANOPY_ALERT_WEBHOOK_BASE: hooks.base,
    CANOPY_ALERT_INTERVAL_MS: '20',
    CANOPY_ALERT_RATE_PER_MINUTE: String(RATE),
  },
);

it('lists every event the contract names', () => {
  assert.equal(new Set(SERVER_ALERT_EVENTS).size, 11);
});
