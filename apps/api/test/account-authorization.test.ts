import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { grantCredits } from '../src/payments/credits.service.ts';
import { createRedeemCode } from '../src/redeem/redeem-codes.service.ts';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { sql } from './support/servers.ts';

// Every account route of issue 10 × every kind of caller: the status the api must answer, and for refused
// writes, proof that nothing changed (claims, purchases, credit, feedback, the code's stock).

type Actor = 'anonymous' | 'unregistered' | 'strangerAsOwner' | 'banned' | 'adminAsOwner' | 'owner';
interface Row {
  method: string;
  path: (id: string) => string;
  body?: unknown;
  mutates: boolean;
  /** The answer for each actor: a refusal status, or 'allowed' (past the permission layer). */
  want: Record<Actor, number | 'allowed'>;
}

const CODE = 'MATRIXCODE';
const own = { anonymous: 401, unregistered: 403, strangerAsOwner: 403, banned: 403, owner: 'allowed' } as const;

const rows: Row[] = [
  {
    method: 'GET',
    path: (id) => `/users/${id}/public-redeem-codes`,
    mutates: false,
    // Another user's list needs users:view (account-reads-by-admins.test.ts); this admin holds no permission.
    want: { ...own, adminAsOwner: 403 },
  },
  {
    method: 'POST',
    path: (id) => `/users/${id}/redeem`,
    body: { code: CODE },
    mutates: true,
    want: { ...own, adminAsOwner: 403 },
  },
  {
    method: 'POST',
    path: (id) => `/users/${id}/shop/checkout`,
    // Server time: any account can use it (a slot only one with neither a server nor a free slot).
    body: { cart: { server_time_7d: 1 } },
    mutates: true,
    want: { ...own, adminAsOwner: 403 },
  },
  {
    method: 'GET',
    path: () => '/shop/items',
    mutates: false,
    want: { ...own, strangerAsOwner: 'allowed', banned: 'allowed', adminAsOwner: 'allowed' },
  },
  {
    method: 'POST',
    path: () => '/feedback',
    body: { type: 'Suggestion', message: 'More worlds please' },
    mutates: true,
    want: { ...own, strangerAsOwner: 'allowed', adminAsOwner: 'allowed' },
  },
  {
    method: 'GET',
    path: () => '/setup-guide',
    mutates: false,
    want: { ...own, strangerAsOwner: 'allowed', banned: 'allowed', adminAsOwner: 'allowed' },
  },
  {
    method: 'POST',
    path: () => '/ai/chat',
    body: { history: [], message: 'How do I start my server?' },
    mutates: false,
    want: { ...own, strangerAsOwner: 'allowed', banned: 'allowed', adminAsOwner: 'allowed' },
  },
];

describeEachDatabase('authorization matrix of account routes', (api) => {
  const who = {} as Record<Actor, { id: string; token: string | undefined }>;

  const snapshot = async () => {
    const db = api().ctx.db;
    const count = async (table: string) =>
      Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n);
    return JSON.stringify([
      await count('redeem_claims'),
      await count('purchases'),
      await count('credit_ledger'),
      await count('feedback'),
      await db.get('SELECT claimed FROM redeem_codes WHERE code_key = ?', [CODE]),
      await db.all('SELECT id, credit, available_slot FROM users ORDER BY id'),
    ]);
  };

  before(async () => {
    const t = api();
    const owner = await signInRegistered(t);
    const stranger = await signInRegistered(t);
    const banned = await signInRegistered(t);
    const unregistered = await signIn(t);
    const admin = await signInRegistered(t);
    await sql(t, "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [banned.user.id]);
    await sql(t, 'UPDATE users SET is_admin = 1 WHERE id = ?', [admin.user.id]);
    // Everyone who might slip through could afford the purchase and claim the code: a refusal is the only
    // thing that keeps the snapshot still.
    for (const u of [owner, stranger, banned, admin])
      await grantCredits(t.ctx.db, u.user.id, 10_000, { reason: 'test', actor: 'test' }, t.clock.now);
    await sql(t, 'UPDATE users SET credit = 10000 WHERE id = ?', [unregistered.user.id]);
    await createRedeemCode(
      t.ctx.db,
      { type: 'Slot', amount: 1, stock: 100, code: CODE, isPublic: true, createdBy: 'test' },
      t.clock.now,
    );
    who.owner = { id: owner.user.id, token: owner.sessionToken };
    who.anonymous = { id: owner.user.id, token: undefined };
    who.unregistered = { id: unregistered.user.id, token: unregistered.sessionToken };
    who.strangerAsOwner = { id: owner.user.id, token: stranger.sessionToken };
    who.banned = { id: banned.user.id, token: banned.sessionToken };
    who.adminAsOwner = { id: owner.user.id, token: admin.sessionToken };
  });

  for (const row of rows) {
    it(`${row.method} ${row.path('{id}')}`, async () => {
      // The owner goes last: their allowed write is the only change the row may make.
      for (const actor of [
        'anonymous',
        'unregistered',
        'strangerAsOwner',
        'banned',
        'adminAsOwner',
        'owner',
      ] as const) {
        const caller = who[actor];
        const want = row.want[actor];
        const before = want !== 'allowed' && row.mutates ? await snapshot() : '';
        const res = await api().request(row.method, row.path(caller.id), { token: caller.token, body: row.body });
        if (want === 'allowed') {
          assert.ok(
            res.status < 400,
            `${actor}: expected to be allowed, got ${res.status} ${JSON.stringify(res.body)}`,
          );
          continue;
        }
        assert.equal(res.status, want, `${actor}: ${JSON.stringify(res.body)}`);
        assert.equal(typeof res.body?.error, 'string', `${actor}: a refusal says why`);
        if (row.mutates) assert.equal(await snapshot(), before, `${actor}: a refused request changed something`);
      }
    });
  }
});
