import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  defaultSettings,
  economyMessages,
  expiryDayEnd,
  expiryDayOf,
  redeemMessages as m,
  messages,
  profileResponseSchema,
  publicRedeemCodeListSchema,
  redeemResponseSchema,
} from '@canopy/contract';
import { createRedeemCode } from '../src/redeem/redeem-codes.service.ts';
import { enforceServerTime } from '../src/scheduler/server-time.ts';
import { addCollaborator, ownerWithServer, signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

const ADMIN = '188888888888888888';
const DAY = 24 * 3600 * 1000;

type Session = Awaited<ReturnType<typeof signInRegistered>>;
let seq = 0;

/** A code with a unique text; public unless told otherwise. */
const newCode = (api: TestApi, fields: Partial<Parameters<typeof createRedeemCode>[1]> = {}) =>
  createRedeemCode(
    api.ctx.db,
    {
      type: 'Slot',
      amount: 1,
      stock: 10,
      isPublic: true,
      createdBy: 'test',
      code: `T${process.pid % 10000}X${++seq}`,
      ...fields,
    },
    api.clock.now,
  );

const redeem = (api: TestApi, s: Session, code: unknown) =>
  api.request('POST', `/users/${s.user.id}/redeem`, { token: s.sessionToken, body: { code } });
const publicCodes = (api: TestApi, s: Session, id = s.user.id) =>
  api.request('GET', `/users/${id}/public-redeem-codes`, { token: s.sessionToken });
const userRow = async (api: TestApi, id: string) => {
  const r = await api.ctx.db.get<Record<string, number | null>>(
    'SELECT available_slot, server_expires_at, pending_server_ms FROM users WHERE id = ?',
    [id],
  );
  return {
    slots: Number(r?.available_slot),
    expiresAt: r?.server_expires_at == null ? null : Number(r.server_expires_at),
    pendingMs: Number(r?.pending_server_ms),
  };
};
const claimedOf = async (api: TestApi, code: string) =>
  Number(
    (await api.ctx.db.get<{ claimed: number }>('SELECT claimed FROM redeem_codes WHERE code = ?', [code]))?.claimed,
  );
const claimRows = async (api: TestApi, code: string) =>
  Number((await api.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM redeem_claims WHERE code = ?', [code]))?.n);
const entryFor = async (api: TestApi, s: Session, code: string) => {
  const res = await publicCodes(api, s);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return publicRedeemCodeListSchema.parse(res.body).find((c) => c.code === code);
};

describeEachDatabase(
  'redeem codes',
  (api) => {
    it('redeems a slot code whatever its case and surrounding spaces, once per user', async () => {
      const s = await signInRegistered(api());
      const { code } = await newCode(api(), { amount: 3 });
      const before = await userRow(api(), s.user.id);
      const res = await redeem(api(), s, `  ${code.toLowerCase()}  `);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(redeemResponseSchema.parse(res.body), { message: m.success('3 Slots'), reward: '3 Slots' });
      assert.equal((await userRow(api(), s.user.id)).slots, before.slots + 3);
      assert.equal(await claimedOf(api(), code), 1);
      // The activity log names it as a phrase, like every other action.
      const logged = await api().ctx.db.get<{ action: string }>('SELECT action FROM activity_logs WHERE details = ?', [
        `${code}: 3 Slots`,
      ]);
      assert.equal(logged?.action, 'Code redeemed');

      const again = await redeem(api(), s, code);
      assert.equal(again.status, 409);
      assert.equal(again.body.error, m.alreadyClaimed);
      assert.equal((await userRow(api(), s.user.id)).slots, before.slots + 3);
      assert.equal(await claimedOf(api(), code), 1);

      const other = await signInRegistered(api());
      assert.deepEqual(await entryFor(api(), s, code), {
        code,
        reward: '3 Slots',
        status: 'claimed',
        stock: { claimed: 1, total: 10 },
        expiryDate: null,
      });
      assert.equal((await entryFor(api(), other, code))?.status, 'available');
    });

    it('refuses a missing, blank, too long or unknown code with its own message and changes nothing', async () => {
      const s = await signInRegistered(api());
      const before = await userRow(api(), s.user.id);
      const missing = await api().request('POST', `/users/${s.user.id}/redeem`, { token: s.sessionToken, body: {} });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, m.codeRequired);
      const blank = await redeem(api(), s, '   ');
      assert.equal(blank.status, 400);
      assert.equal(blank.body.error, m.codeRequired);
      const long = await redeem(api(), s, 'A'.repeat(65));
      assert.equal(long.status, 400);
      assert.equal(long.body.error, m.codeTooLong);
      const unknown = await redeem(api(), s, 'NO-SUCH-CODE');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, m.notFound);
      assert.deepEqual(await userRow(api(), s.user.id), before);
    });

    it('refuses a code holding a control character with a clear 400 (not a database error) and claims nothing', async () => {
      const s = await signInRegistered(api());
      const { code } = await newCode(api());
      const before = await userRow(api(), s.user.id);
      // PostgreSQL cannot even compare a text holding NUL: the schema must stop it before the lookup.
      for (const bad of [`${code}\u0000`, `${code.slice(0, 2)}\u0007${code.slice(2)}`, `\u001b${code}`]) {
        const res = await redeem(api(), s, bad);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error, m.codeControl);
      }
      // A zero-width character is not whitespace: such a code is simply another (unknown) code.
      const zeroWidth = await redeem(api(), s, `${code.slice(0, 2)}\u200b${code.slice(2)}`);
      assert.equal(zeroWidth.status, 404);
      assert.deepEqual(await userRow(api(), s.user.id), before);
      assert.equal(await claimedOf(api(), code), 0);
    });

    it('a code works until the end of its expiry day (UTC), then says it expired', async () => {
      const saved = api().clock.now;
      try {
        const day = expiryDayOf(saved);
        // A minute before the day ends, so the sessions signed in now are still valid past its end.
        api().clock.now = expiryDayEnd(day) - 60_000;
        const a = await signInRegistered(api());
        const b = await signInRegistered(api());
        const { code } = await newCode(api(), { expiryDate: day, stock: 1 });
        assert.equal((await entryFor(api(), a, code))?.expiryDate, day);

        api().clock.now = expiryDayEnd(day) + 1;
        assert.equal((await entryFor(api(), a, code))?.status, 'expired');
        const late = await redeem(api(), a, code);
        assert.equal(late.status, 410);
        assert.equal(late.body.error, m.expired);
        assert.equal(await claimedOf(api(), code), 0);

        api().clock.now = expiryDayEnd(day);
        const last = await redeem(api(), a, code);
        assert.equal(last.status, 200, JSON.stringify(last.body));
        // Expired and exhausted: expiry is told first; the claimant still sees their own claim.
        api().clock.now = expiryDayEnd(day) + 1;
        assert.equal((await entryFor(api(), b, code))?.status, 'expired');
        assert.equal((await entryFor(api(), a, code))?.status, 'claimed');
      } finally {
        api().clock.now = saved;
      }
    });

    it('an exhausted code says so, to the list and to a redeem', async () => {
      const [a, b] = [await signInRegistered(api()), await signInRegistered(api())];
      const { code } = await newCode(api(), { stock: 1 });
      assert.equal((await redeem(api(), a, code)).status, 200);
      const late = await redeem(api(), b, code);
      assert.equal(late.status, 409);
      assert.equal(late.body.error, m.outOfStock);
      assert.equal((await entryFor(api(), b, code))?.status, 'out_of_stock');
      assert.equal(await claimedOf(api(), code), 1);
    });

    it('server time: banked before the first server, extended on a running clock', async () => {
      const s = await signInRegistered(api());
      const before = await userRow(api(), s.user.id);
      assert.equal(before.expiresAt, null);
      const banked = await newCode(api(), { type: 'ServerTime', amount: 7 });
      const res = await redeem(api(), s, banked.code);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.reward, '7 Days Server Time');
      assert.equal((await userRow(api(), s.user.id)).pendingMs, before.pendingMs + 7 * DAY);

      const now = api().clock.now;
      await sql(api(), 'UPDATE users SET server_expires_at = ?, pending_server_ms = 0 WHERE id = ?', [
        now + DAY,
        s.user.id,
      ]);
      const running = await newCode(api(), { type: 'ServerTime', amount: 1 });
      assert.equal((await redeem(api(), s, running.code)).body.reward, '1 Day Server Time');
      assert.equal((await userRow(api(), s.user.id)).expiresAt, now + 2 * DAY);
    });

    it('server time for a server in its grace period counts from now and lifts the grace period', async () => {
      const s = await ownerWithServer(api(), `grace${process.pid % 10000}`);
      const now = api().clock.now;
      await sql(api(), 'UPDATE users SET server_expires_at = ? WHERE id = ?', [now - DAY, s.user.id]);
      const profile = async () =>
        profileResponseSchema.parse(
          (await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken })).body,
        ).profile;
      assert.match((await profile()).estimatedExpiry, /^Grace period ends/);

      const { code } = await newCode(api(), { type: 'ServerTime', amount: 7 });
      assert.equal((await redeem(api(), s, code)).status, 200);
      assert.equal((await userRow(api(), s.user.id)).expiresAt, now + 7 * DAY);
      assert.equal((await profile()).estimatedExpiry, new Date(now + 7 * DAY).toISOString());
    });

    it('server time for an account whose server the grace period deleted is banked for its next server', async () => {
      const name = `gone${process.pid % 10000}`;
      const s = await ownerWithServer(api(), name);
      const now = api().clock.now;
      await sql(api(), 'UPDATE users SET server_expires_at = ? WHERE id = ?', [now - 10 * DAY, s.user.id]);
      await enforceServerTime(api().ctx);
      assert.equal(await api().ctx.db.get('SELECT id FROM servers WHERE name = ?', [name]), undefined);

      // The old clock is over and there is no server to run a new one: the days wait for the next server
      // instead of running out unused (like time redeemed before the first server).
      const { code } = await newCode(api(), { type: 'ServerTime', amount: 7 });
      assert.equal((await redeem(api(), s, code)).status, 200);
      assert.deepEqual(await userRow(api(), s.user.id), { slots: 1, expiresAt: null, pendingMs: 7 * DAY });

      api().clock.now += 10 * 60_000; // the days did not run meanwhile
      const again = await api().request('POST', `/users/${s.user.id}/server`, {
        token: s.sessionToken,
        body: { serverName: name },
      });
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.equal((await userRow(api(), s.user.id)).expiresAt, api().clock.now + 7 * DAY);
      await api().request('DELETE', `/users/${s.user.id}/server`, { token: s.sessionToken });
    });

    it('tells a collaborator that server time goes to their own account, not the server they help on', async () => {
      const owner = await ownerWithServer(api(), `own${process.pid % 10000}`);
      const helper = await signInRegistered(api());
      await addCollaborator(api(), owner.user.id, helper.user.id, ['server:actions']);
      const ownerBefore = await userRow(api(), owner.user.id);
      const helperBefore = await userRow(api(), helper.user.id);
      const time = await newCode(api(), { type: 'ServerTime', amount: 7 });
      const res = await redeem(api(), helper, time.code);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(redeemResponseSchema.parse(res.body), {
        message: m.successOwnAccount('7 Days Server Time'),
        reward: '7 Days Server Time',
      });
      assert.equal((await userRow(api(), helper.user.id)).pendingMs, helperBefore.pendingMs + 7 * DAY);
      assert.deepEqual(await userRow(api(), owner.user.id), ownerBefore);
      // The owner redeeming is told the usual text.
      const again = await newCode(api(), { type: 'ServerTime', amount: 7 });
      assert.equal((await redeem(api(), owner, again.code)).body.message, m.success('7 Days Server Time'));
      await api().request('DELETE', `/users/${owner.user.id}/server`, { token: owner.sessionToken });
    });

    it('time refused for an account whose time never runs out rolls the claim back', async () => {
      const s = await signInRegistered(api());
      await sql(api(), 'UPDATE users SET server_permanent = 1 WHERE id = ?', [s.user.id]);
      const { code } = await newCode(api(), { type: 'ServerTime', amount: 7 });
      const res = await redeem(api(), s, code);
      assert.equal(res.status, 409);
      assert.equal(res.body.error, economyMessages.serverTimePermanent);
      assert.equal(await claimedOf(api(), code), 0);
      assert.equal(await claimRows(api(), code), 0);
      assert.equal((await entryFor(api(), s, code))?.status, 'available');
    });

    it('50 users claiming a code of stock 10 at once: exactly 10 claims, 40 told it is exhausted', async () => {
      const people = await Promise.all(Array.from({ length: 50 }, () => signInRegistered(api())));
      const { code } = await newCode(api(), { stock: 10 });
      const answers = await Promise.all(people.map((s) => redeem(api(), s, code)));
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      assert.equal(won.length, 10, JSON.stringify(lost.filter((a) => a.status !== 409).map((a) => a.body)));
      for (const a of lost) {
        assert.equal(a.status, 409);
        assert.equal(a.body.error, m.outOfStock);
      }
      assert.equal(await claimedOf(api(), code), 10);
      assert.equal(await claimRows(api(), code), 10);
    });

    it('the same user claiming at once gets one claim and clear refusals', async () => {
      const s = await signInRegistered(api());
      const before = await userRow(api(), s.user.id);
      for (let round = 0; round < 3; round++) {
        const { code } = await newCode(api(), { amount: 2 });
        const answers = await Promise.all([redeem(api(), s, code), redeem(api(), s, code), redeem(api(), s, code)]);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409], JSON.stringify(answers));
        for (const a of answers.filter((x) => x.status === 409)) assert.equal(a.body.error, m.alreadyClaimed);
        assert.equal(await claimedOf(api(), code), 1);
      }
      assert.equal((await userRow(api(), s.user.id)).slots, before.slots + 6);
    });

    it("refuses another user's id (an admin may read another's list), the unregistered and the banned", async () => {
      const [a, b] = [await signInRegistered(api()), await signInRegistered(api())];
      const { code } = await newCode(api());
      assert.equal((await redeem(api(), a, code)).status, 200);
      const peek = await publicCodes(api(), a, b.user.id);
      assert.equal(peek.status, 403);
      const forOther = await api().request('POST', `/users/${b.user.id}/redeem`, {
        token: a.sessionToken,
        body: { code },
      });
      assert.equal(forOther.status, 403);
      const admin = await signInRegistered(api(), { id: ADMIN });
      const asAdmin = await publicCodes(api(), admin, a.user.id);
      assert.equal(asAdmin.status, 200);
      assert.equal(
        publicRedeemCodeListSchema.parse(asAdmin.body).find((c) => c.code === code)?.status,
        'claimed',
        'the admin sees the list as that user sees it',
      );

      const unregistered = await signIn(api());
      const u = await api().request('POST', `/users/${unregistered.user.id}/redeem`, {
        token: unregistered.sessionToken,
        body: { code },
      });
      assert.equal(u.status, 403);
      assert.equal(u.body.error, messages.notRegistered);

      const banned = await signInRegistered(api());
      await sql(api(), 'UPDATE users SET is_banned = 1 WHERE id = ?', [banned.user.id]);
      const refused = await redeem(api(), banned, code);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, m.banned);
      assert.equal((await publicCodes(api(), banned)).status, 403);
      assert.equal(await claimedOf(api(), code), 1);
    });

    it('in maintenance a user cannot redeem (503) and nothing is claimed', async () => {
      const s = await signInRegistered(api());
      const admin = await signIn(api(), { id: ADMIN });
      const { code } = await newCode(api());
      const settings = async (maintenance: boolean) =>
        assert.equal(
          (
            await api().request('POST', '/admin/settings', {
              token: admin.sessionToken,
              body: { ...defaultSettings, maintenance },
            })
          ).status,
          200,
        );
      await settings(true);
      try {
        const res = await redeem(api(), s, code);
        assert.equal(res.status, 503);
        assert.equal(res.body.error, messages.maintenance);
      } finally {
        await settings(false);
      }
      assert.equal(await claimedOf(api(), code), 0);
    });

    it('private codes are redeemable but not listed', async () => {
      const s = await signInRegistered(api());
      const { code } = await newCode(api(), { isPublic: false });
      assert.equal(await entryFor(api(), s, code), undefined);
      assert.equal((await redeem(api(), s, code)).status, 200);
    });

    it("the profile's history lists the redeemed codes, newest first", async () => {
      const s = await signInRegistered(api());
      const first = await newCode(api(), { amount: 1 });
      const second = await newCode(api(), { type: 'ServerTime', amount: 3 });
      const t0 = api().clock.now;
      assert.equal((await redeem(api(), s, first.code)).status, 200);
      api().clock.now = t0 + 1000;
      try {
        assert.equal((await redeem(api(), s, second.code)).status, 200);
      } finally {
        api().clock.now = t0;
      }
      const res = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
      const { redeemedCodes } = profileResponseSchema.parse(res.body).profile;
      assert.deepEqual(redeemedCodes, [
        { code: second.code, reward: '3 Days Server Time', redeemedAt: new Date(t0 + 1000).toISOString() },
        { code: first.code, reward: '1 Slot', redeemedAt: new Date(t0).toISOString() },
      ]);
    });

    it('guessing is slow: the eleventh attempt within a minute is refused with 429', async () => {
      const s = await signInRegistered(api());
      for (let i = 0; i < 10; i++) assert.equal((await redeem(api(), s, `GUESS-${i}`)).status, 404);
      const res = await redeem(api(), s, 'GUESS-10');
      assert.equal(res.status, 429);
      assert.ok(res.body.error);
    });
  },
  { CANOPY_SUPER_ADMINS: ADMIN },
);
