import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import {
  ADMIN_PAGE_SIZE,
  adminFeedbackPageSchema,
  adminRedeemCodePageSchema,
  adminContentMessages as cm,
  expiryDayEnd,
  FEEDBACK_STATUSES,
  messages,
  redeemMessages as rm,
} from '@canopy/contract';
import { feedbackRepo } from '../src/feedback/feedback.repo.ts';
import { signIn, signInAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

const addFeedback = async (api: TestApi, message: string, at: number) => {
  const id = randomUUID();
  const u = await signIn(api);
  await feedbackRepo.insert(api.ctx.db, {
    id,
    userId: u.user.id,
    type: 'Suggestion',
    message,
    username: u.user.username,
    growId: null,
    createdAt: at,
  });
  return id;
};

const codes = (api: TestApi) => api.ctx.db.all<{ code: string }>('SELECT code FROM redeem_codes ORDER BY code');
const feedbackRows = (api: TestApi) =>
  api.ctx.db.all<{ id: string; status: string }>('SELECT id, status FROM feedback ORDER BY id');

describeEachDatabase('admin redeem codes and feedback', (api) => {
  let plain: Session;
  let noPermission: Session;
  let viewer: Session;
  let manager: Session;
  let superAdmin: Session;
  before(async () => {
    plain = await signInRegistered(api());
    noPermission = await signInAdmin(api(), ['dashboard:view', 'users:manage']);
    viewer = await signInAdmin(api(), ['codes:view', 'feedback:view']);
    manager = await signInAdmin(api(), ['codes:view', 'codes:manage', 'feedback:view', 'feedback:manage']);
    superAdmin = await signInAdmin(api(), 'super');
  });

  const call = (s: Session | undefined, method: string, path: string, body?: unknown) =>
    api().request(method, path, { token: s?.sessionToken, body });

  it('lets only the holder of each permission call each route; refused calls change nothing', async () => {
    const code = (await call(superAdmin, 'POST', '/admin/redeem-codes', { type: 'Slot', amount: 1, stock: 1 })).body
      .code;
    const feedbackId = await addFeedback(api(), 'matrix', api().clock.now);
    const routes = [
      { method: 'GET', path: '/admin/redeem-codes', view: true },
      { method: 'POST', path: '/admin/redeem-codes', body: { type: 'Slot', amount: 1, stock: 1 } },
      { method: 'DELETE', path: `/admin/redeem-codes/${code}` },
      { method: 'GET', path: '/admin/feedback', view: true },
      { method: 'PUT', path: `/admin/feedback/${feedbackId}/status`, body: { status: 'Resolved' } },
      { method: 'DELETE', path: `/admin/feedback/${feedbackId}` },
    ];
    const [codesBefore, feedbackBefore] = [await codes(api()), await feedbackRows(api())];
    for (const r of routes) {
      const name = `${r.method} ${r.path}`;
      assert.equal((await call(undefined, r.method, r.path, r.body)).status, 401, name);
      const asPlain = await call(plain, r.method, r.path, r.body);
      assert.deepEqual([asPlain.status, asPlain.body.error], [403, messages.adminOnly], name);
      const asOther = await call(noPermission, r.method, r.path, r.body);
      assert.deepEqual([asOther.status, asOther.body.error], [403, messages.missingPermission], name);
      assert.equal((await call(viewer, r.method, r.path, r.body)).status, r.view ? 200 : 403, name);
    }
    assert.deepEqual(await codes(api()), codesBefore);
    assert.deepEqual(await feedbackRows(api()), feedbackBefore);
    // The holders of the permission, then a super admin.
    for (const [who, s] of [
      ['manager', manager],
      ['super admin', superAdmin],
    ] as const) {
      assert.equal((await call(s, 'GET', '/admin/redeem-codes')).status, 200, who);
      assert.equal((await call(s, 'GET', '/admin/feedback')).status, 200, who);
      assert.equal((await call(s, 'POST', '/admin/redeem-codes', { type: 'Slot', amount: 1, stock: 1 })).status, 201);
      const put = await call(s, 'PUT', `/admin/feedback/${feedbackId}/status`, { status: 'Resolved' });
      assert.deepEqual([put.status, put.body], [200, { message: cm.statusUpdated }], who);
    }
    const del = await call(manager, 'DELETE', `/admin/redeem-codes/${code}`);
    assert.deepEqual([del.status, del.body], [200, { message: cm.codeDeleted(code) }]);
    const delFeedback = await call(superAdmin, 'DELETE', `/admin/feedback/${feedbackId}`);
    assert.deepEqual([delFeedback.status, delFeedback.body], [200, { message: cm.feedbackDeleted }]);
  });

  it('creates a code in the admin name with the suffix, refuses amount or stock below 1, and logs it', async () => {
    const creator = await signInAdmin(api(), ['codes:manage']);
    const before = await codes(api());
    for (const [body, text] of [
      [{ type: 'Slot', amount: 0, stock: 1 }, rm.amountInvalid],
      [{ type: 'Slot', amount: 1, stock: 0 }, rm.stockInvalid],
      [{ type: 'ServerTime', amount: 1.5, stock: 1 }, rm.amountInvalid],
      [{ type: 'Slot', amount: 1, stock: 1, expiryDate: '2026-02-30' }, rm.dateInvalid],
      [{ type: 'Slot', amount: 1, stock: 1, expiryDate: '2020-01-01' }, rm.datePast],
      // Yesterday (UTC) has ended; today is still allowed (the status test below creates codes expiring today).
      [
        {
          type: 'Slot',
          amount: 1,
          stock: 1,
          expiryDate: new Date(api().clock.now - 86_400_000).toISOString().slice(0, 10),
        },
        rm.datePast,
      ],
      [{ type: 'Slot', amount: 1, stock: 1, customSuffix: 'no spaces' }, rm.suffixInvalid],
      // zod's generic texts in our words, for every route (contract issues.ts), not 'isPublic: Invalid input: …'.
      [{ type: 'Slot', amount: 1, stock: 1, isPublic: 'yes' }, 'isPublic must be true or false.'],
      [{ type: 'Slot', amount: 1, stock: 1, extra: 1 }, 'Unknown field "extra".'],
      [{ type: 'Slot', amount: 1, stock: 1, customSuffix: 7 }, 'customSuffix must be text.'],
    ] as const) {
      const res = await call(creator, 'POST', '/admin/redeem-codes', body);
      assert.deepEqual([res.status, res.body.error], [400, text], JSON.stringify(body));
    }
    assert.deepEqual(await codes(api()), before);

    const res = await call(creator, 'POST', '/admin/redeem-codes', {
      type: 'ServerTime',
      amount: 3,
      stock: 2,
      customSuffix: 'spring',
      expiryDate: '',
      isPublic: true,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['code']);
    assert.match(res.body.code, /-SPRING$/);
    const listed = await call(viewer, 'GET', `/admin/redeem-codes?search=${res.body.code.toLowerCase()}`);
    const page = adminRedeemCodePageSchema.parse(listed.body);
    assert.deepEqual(page.items, [
      {
        code: res.body.code,
        type: 'ServerTime',
        amount: 3,
        stock: 2,
        claimed: 0,
        claimedBy: [],
        createdBy: creator.user.username,
        expiryDate: null,
        isPublic: true,
        displayStatus: 'Public',
      },
    ]);
    const logged = await api().ctx.db.get<{ actor_type: string; actor_name: string; details: string }>(
      "SELECT actor_type, actor_name, details FROM activity_logs WHERE action = 'Redeem code created' AND details LIKE ?",
      [`${res.body.code}:%`],
    );
    assert.deepEqual(
      { ...logged },
      {
        actor_type: 'Admin',
        actor_name: creator.user.username,
        details: `${res.body.code}: 3 Days Server Time`,
      },
    );
  });

  it('shows each code display status: Expired after its day, Out of Stock, Public, Active', async () => {
    // Yesterday (UTC): the clock goes back to the end of that day, so sessions stay valid.
    const day = new Date(api().clock.now - 24 * 3600 * 1000).toISOString().slice(0, 10);
    const saved = api().clock.now;
    const make = async (body: object) => {
      const res = await call(manager, 'POST', '/admin/redeem-codes', {
        type: 'Slot',
        amount: 1,
        stock: 1,
        customSuffix: 'status1',
        expiryDate: day,
        ...body,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.code as string;
    };
    const statuses = async () => {
      const res = await call(viewer, 'GET', '/admin/redeem-codes?search=-STATUS1');
      const items = adminRedeemCodePageSchema.parse(res.body).items;
      return Object.fromEntries(items.map((c) => [c.code, [c.displayStatus, c.claimedBy]]));
    };
    try {
      api().clock.now = expiryDayEnd(day);
      const active = await make({ stock: 2 });
      const publicCode = await make({ isPublic: true, stock: 2 });
      const soldOut = await make({ isPublic: true });
      const claimer = await signInRegistered(api());
      const redeem = await api().request('POST', `/users/${claimer.user.id}/redeem`, {
        token: claimer.sessionToken,
        body: { code: soldOut },
      });
      assert.equal(redeem.status, 200, JSON.stringify(redeem.body));
      assert.deepEqual(await statuses(), {
        [active]: ['Active', []],
        [publicCode]: ['Public', []],
        [soldOut]: ['Out of Stock', [claimer.growId]],
      });
      api().clock.now = expiryDayEnd(day) + 1;
      assert.deepEqual(await statuses(), {
        [active]: ['Expired', []],
        [publicCode]: ['Expired', []],
        [soldOut]: ['Expired', [claimer.growId]],
      });
    } finally {
      api().clock.now = saved;
    }
  });

  it('pages and searches codes in SQL, newest first; LIKE wildcards match only themselves', async () => {
    const made: string[] = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i++) {
      api().clock.now += 1;
      made.push(
        (
          await call(manager, 'POST', '/admin/redeem-codes', {
            type: 'Slot',
            amount: 1,
            stock: 1,
            customSuffix: 'paged1',
          })
        ).body.code,
      );
    }
    const first = adminRedeemCodePageSchema.parse(
      (await call(viewer, 'GET', '/admin/redeem-codes?search=-PAGED1')).body,
    );
    assert.equal(first.total, ADMIN_PAGE_SIZE + 2);
    assert.equal(first.pageSize, ADMIN_PAGE_SIZE);
    assert.deepEqual(
      first.items.map((c) => c.code),
      [...made].reverse().slice(0, ADMIN_PAGE_SIZE),
    );
    const second = adminRedeemCodePageSchema.parse(
      (await call(viewer, 'GET', '/admin/redeem-codes?search=-paged1&page=2')).body,
    );
    assert.deepEqual(
      second.items.map((c) => c.code),
      made.slice(0, 2).reverse(),
    );
    assert.equal(second.page, 2);
    const wildcard = adminRedeemCodePageSchema.parse(
      (await call(viewer, 'GET', '/admin/redeem-codes?search=%25')).body,
    );
    assert.deepEqual([wildcard.total, wildcard.items], [0, []]);
    const bad = await call(viewer, 'GET', '/admin/redeem-codes?page=0');
    assert.deepEqual([bad.status, bad.body.error], [400, 'page must be 1 or more.']);
  });

  it('deletes a code whatever its case, then answers 404 for it', async () => {
    const code = (await call(manager, 'POST', '/admin/redeem-codes', { type: 'Slot', amount: 1, stock: 1 })).body.code;
    assert.equal((await call(manager, 'DELETE', `/admin/redeem-codes/${code.toLowerCase()}`)).status, 200);
    const again = await call(manager, 'DELETE', `/admin/redeem-codes/${code}`);
    assert.deepEqual([again.status, again.body.error], [404, rm.codeMissing]);
    const nul = await call(manager, 'DELETE', '/admin/redeem-codes/A%00B');
    assert.equal(nul.status, 400);
  });

  it('lists feedback newest first in pages, moves it to any status from any other, and deletes it', async () => {
    const base = api().clock.now + 1_000_000;
    const ids: string[] = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 1; i++) ids.push(await addFeedback(api(), `message ${i}`, base + i));
    const first = adminFeedbackPageSchema.parse((await call(viewer, 'GET', '/admin/feedback')).body);
    assert.deepEqual(
      first.items.map((f) => f.id),
      [...ids].reverse().slice(0, ADMIN_PAGE_SIZE),
    );
    assert.equal(first.items[0]?.timestamp, new Date(base + ADMIN_PAGE_SIZE).toISOString());
    assert.equal(first.items[0]?.status, 'New');
    const total = first.total;
    const second = adminFeedbackPageSchema.parse((await call(viewer, 'GET', '/admin/feedback?page=2')).body);
    assert.equal(second.items[0]?.id, ids[0]);

    const id = ids[0] ?? '';
    const statusOf = async () =>
      (await api().ctx.db.get<{ status: string }>('SELECT status FROM feedback WHERE id = ?', [id]))?.status;
    for (const from of FEEDBACK_STATUSES)
      for (const to of FEEDBACK_STATUSES) {
        if (from === to) continue;
        await sql(api(), 'UPDATE feedback SET status = ? WHERE id = ?', [from, id]);
        const res = await call(manager, 'PUT', `/admin/feedback/${id}/status`, { status: to });
        assert.equal(res.status, 200, `${from} → ${to}`);
        assert.equal(await statusOf(), to, `${from} → ${to}`);
      }
    const bad = await call(manager, 'PUT', `/admin/feedback/${id}/status`, { status: 'Done' });
    assert.deepEqual([bad.status, bad.body.error], [400, cm.statusInvalid]);
    const missing = await call(manager, 'PUT', `/admin/feedback/${randomUUID()}/status`, { status: 'New' });
    assert.deepEqual([missing.status, missing.body.error], [404, cm.feedbackMissing]);

    assert.equal((await call(manager, 'DELETE', `/admin/feedback/${id}`)).status, 200);
    assert.equal(await statusOf(), undefined);
    const gone = await call(manager, 'DELETE', `/admin/feedback/${id}`);
    assert.deepEqual([gone.status, gone.body.error], [404, cm.feedbackMissing]);
    const after = adminFeedbackPageSchema.parse((await call(viewer, 'GET', '/admin/feedback')).body);
    assert.equal(after.total, total - 1);
  });
});
