import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  FEEDBACK_MESSAGE_MAX,
  FEEDBACK_RATE_LIMIT,
  feedbackMessages as f,
  feedbackRequestSchema,
  messages,
} from '@canopy/contract';
import { feedbackRepo } from '../src/feedback/feedback.repo.ts';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

type Session = { sessionToken: string; user: { id: string } };

const send = (api: TestApi, s: Session, body: unknown) =>
  api.request('POST', '/feedback', { token: s.sessionToken, body });

interface Row {
  id: string;
  user_id: string;
  type: string;
  message: string;
  submitted_by_username: string;
  submitted_by_grow_id: string;
  status: string;
  created_at: number | string;
}
const rowsOf = (api: TestApi, userId: string) =>
  api.ctx.db.all<Row>('SELECT * FROM feedback WHERE user_id = ? ORDER BY created_at', [userId]);

it('refuses every bidi embedding, override and isolate character, and keeps right-to-left text', () => {
  const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
  for (const c of bidi) {
    const parsed = feedbackRequestSchema.safeParse({ type: 'Suggestion', message: `a ${c}b` });
    assert.equal(parsed.success, false, c.codePointAt(0)?.toString(16));
    assert.equal(parsed.error?.issues[0]?.message, f.controlCharacters);
  }
  // Hebrew and Arabic, and the implicit marks (LRM, RLM) that only hint a direction, are fine.
  for (const message of ['שלום מרحبا', 'abc \u200e def \u200f'])
    assert.equal(feedbackRequestSchema.safeParse({ type: 'Suggestion', message }).success, true, message);
});

describeEachDatabase('feedback', (api) => {
  it('stores the message trimmed with the sender, their GrowID, status New, and thanks them', async () => {
    const user = await signInRegistered(api());
    const res = await send(api(), user, { type: 'Bug Report', message: '  The door does not open.  ' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: f.thanks });
    const [row, ...more] = await rowsOf(api(), user.user.id);
    assert.equal(more.length, 0);
    assert.equal(row?.type, 'Bug Report');
    assert.equal(row?.message, 'The door does not open.');
    assert.equal(row?.submitted_by_username, user.user.username);
    assert.equal(row?.submitted_by_grow_id, user.growId);
    assert.equal(row?.status, 'New');
    assert.equal(Number(row?.created_at), api().clock.now);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const user = await signInRegistered(api());
    const cases: [unknown, string][] = [
      [{ type: 'Suggestion', message: '' }, f.empty],
      [{ type: 'Suggestion', message: ' \n\t ' }, f.empty],
      [{ type: 'Suggestion' }, f.empty],
      [{ type: 'Suggestion', message: 'x'.repeat(FEEDBACK_MESSAGE_MAX + 1) }, f.tooLong],
      [{ type: 'Complaint', message: 'hello' }, f.invalidType],
    ];
    for (const [body, error] of cases) {
      const res = await send(api(), user, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, error);
    }
    assert.equal((await rowsOf(api(), user.user.id)).length, 0);
    // The bound itself is accepted (whitespace around it is trimmed first). Refused attempts count against
    // the rate limit too (it runs before the body is read), so a fresh user sends it.
    const longest = await send(api(), await signInRegistered(api()), {
      type: 'General Feedback',
      message: ` ${'y'.repeat(FEEDBACK_MESSAGE_MAX)} `,
    });
    assert.equal(longest.status, 200, JSON.stringify(longest.body));
  });

  it('refuses control characters and invisible-only messages with a clear 400, storing nothing', async () => {
    const user = await signInRegistered(api());
    const cases: [string, string][] = [
      // NUL is refused by PostgreSQL's text type: it must never reach the database as a 500.
      ['before\u0000after', f.controlCharacters],
      ['bell \u0007 and escape \u001b[31m', f.controlCharacters],
      // Bidi overrides and isolates make a message read differently in the admin panel than it is.
      ['refund \u202eexe.txt', f.controlCharacters],
      ['\u200b\u200b\u2060 \ufeff \u200d', f.empty],
    ];
    for (const [message, error] of cases) {
      const res = await send(api(), user, { type: 'Suggestion', message });
      assert.equal(res.status, 400, JSON.stringify(message));
      assert.equal(res.body.error, error);
    }
    assert.equal((await rowsOf(api(), user.user.id)).length, 0);
    // Lines, tabs and non-Latin text are ordinary feedback.
    const multiline = 'Line one\r\nLine two\twith a tab — ünïcödé 世界 🌱 שלום مرحبا';
    const ok = await send(api(), await signInRegistered(api()), { type: 'Bug Report', message: multiline });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('refuses callers without a session or a GrowID', async () => {
    assert.equal(
      (await api().request('POST', '/feedback', { body: { type: 'Suggestion', message: 'hi' } })).status,
      401,
    );
    const unregistered = await signIn(api());
    const res = await send(api(), unregistered, { type: 'Suggestion', message: 'hi' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, messages.notRegistered);
    assert.equal((await rowsOf(api(), unregistered.user.id)).length, 0);
  });

  it('refuses non-admins during maintenance (503), storing nothing; admins may still write', async () => {
    const user = await signInRegistered(api());
    const admin = await signInRegistered(api());
    await sql(api(), 'UPDATE users SET is_admin = 1 WHERE id = ?', [admin.user.id]);
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('maintenance', 'true')");
    try {
      const res = await send(api(), user, { type: 'Suggestion', message: 'hello during maintenance' });
      assert.equal(res.status, 503);
      assert.equal(res.body.error, messages.maintenance);
      assert.equal((await send(api(), admin, { type: 'Suggestion', message: 'admin note' })).status, 200);
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'maintenance'");
    }
    assert.equal((await rowsOf(api(), user.user.id)).length, 0);
  });

  it('refuses banned users while the ban lasts', async () => {
    const banned = await signInRegistered(api());
    await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'spam', ban_expires = ? WHERE id = ?", [
      api().clock.now + 60_000,
      banned.user.id,
    ]);
    const res = await send(api(), banned, { type: 'Suggestion', message: 'let me back in' });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { error: f.banned, code: 'banned' });
    assert.equal((await rowsOf(api(), banned.user.id)).length, 0);
    // An expired ban no longer blocks.
    await sql(api(), 'UPDATE users SET ban_expires = ? WHERE id = ?', [api().clock.now - 1, banned.user.id]);
    assert.equal((await send(api(), banned, { type: 'Suggestion', message: 'thanks' })).status, 200);
  });

  it(`limits each user to ${FEEDBACK_RATE_LIMIT.max} messages per window, without touching others`, async () => {
    const chatty = await signInRegistered(api());
    for (let i = 0; i < FEEDBACK_RATE_LIMIT.max; i++)
      assert.equal((await send(api(), chatty, { type: 'Suggestion', message: `idea ${i}` })).status, 200);
    const over = await send(api(), chatty, { type: 'Suggestion', message: 'one more' });
    assert.equal(over.status, 429);
    assert.match(over.body.error, /^Too many requests/);
    assert.equal((await rowsOf(api(), chatty.user.id)).length, FEEDBACK_RATE_LIMIT.max);
    const other = await signInRegistered(api());
    assert.equal((await send(api(), other, { type: 'Suggestion', message: 'mine' })).status, 200);
  });

  it('the repo lists newest first with a total, moves a status and deletes (for the admin panel)', async () => {
    const db = api().ctx.db;
    await sql(api(), 'DELETE FROM feedback');
    const user = await signInRegistered(api());
    for (const [i, type] of (['Suggestion', 'Bug Report', 'General Feedback'] as const).entries()) {
      api().clock.now += 1000;
      assert.equal((await send(api(), user, { type, message: `m${i}` })).status, 200);
    }
    const first = await feedbackRepo.list(db, 1, 2);
    assert.equal(first.total, 3);
    assert.deepEqual(
      first.entries.map((e) => e.message),
      ['m2', 'm1'],
    );
    const [newest] = first.entries;
    assert.equal(newest?.submittedByGrowId, user.growId);
    assert.equal(newest?.createdAt, new Date(api().clock.now).toISOString());
    assert.deepEqual(
      (await feedbackRepo.list(db, 2, 2)).entries.map((e) => e.message),
      ['m0'],
    );
    assert.equal(await feedbackRepo.setStatus(db, newest?.id ?? '', 'Resolved'), 'changed');
    assert.equal((await feedbackRepo.list(db, 1, 1)).entries[0]?.status, 'Resolved');
    assert.equal(await feedbackRepo.setStatus(db, newest?.id ?? '', 'Resolved'), 'same');
    assert.equal(await feedbackRepo.setStatus(db, 'missing', 'Resolved'), 'missing');
    assert.equal(await feedbackRepo.delete(db, newest?.id ?? ''), true);
    assert.equal(await feedbackRepo.delete(db, newest?.id ?? ''), false);
    assert.equal((await feedbackRepo.list(db, 1, 10)).total, 2);
  });
});
