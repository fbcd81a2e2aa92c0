import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { expiryDayOf, redeemMessages as m, REDEEM_AMOUNT_MAX, REDEEM_STOCK_MAX } from '@canopy/contract';
import { AppError } from '../src/errors.ts';
import { createRedeemCode, deleteRedeemCode, listRedeemCodes } from '../src/redeem/redeem-codes.service.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';

const refusal = (status: number, message: string) => (e: unknown) =>
  e instanceof AppError && e.status === status && e.message === message;

describeEachDatabase('creating, listing and deleting redeem codes', (api) => {
  const create = (fields: Partial<Parameters<typeof createRedeemCode>[1]>) =>
    createRedeemCode(
      api().ctx.db,
      { type: 'Slot', amount: 1, stock: 1, isPublic: false, createdBy: 'admin1', ...fields },
      api().clock.now,
    );

  it('lists every code with its own claimants in two queries, however many codes there are', async () => {
    const [first, second] = [await signInRegistered(api()), await signInRegistered(api())];
    const [a, b, c] = [await create({ stock: 5 }), await create({ stock: 5 }), await create({ stock: 5 })];
    const claim = (u: typeof first, code: string) =>
      api().request('POST', `/users/${u.user.id}/redeem`, { token: u.sessionToken, body: { code } });
    for (const [u, code] of [
      [first, a],
      [second, a],
      [second, b],
    ] as const)
      assert.equal((await claim(u, code.code)).status, 200);
    // Counts the reads of the listing: one for the codes, one for every claimant of them.
    let reads = 0;
    const db = api().ctx.db;
    const counting = new Proxy(db, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key === 'all' || key === 'get') reads++;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const listed = await listRedeemCodes(counting);
    assert.equal(reads, 2);
    const by = (code: string) => listed.find((c) => c.code === code)?.claimedBy;
    assert.deepEqual(by(a.code), [first.growId, second.growId]);
    assert.deepEqual(by(b.code), [second.growId]);
    assert.deepEqual(by(c.code), []);
  });

  it('generates readable random codes, with the suffix when given', async () => {
    const a = await create({});
    const b = await create({ customSuffix: 'summer' });
    assert.match(a.code, /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    assert.match(b.code, /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-SUMMER$/);
    assert.notEqual(a.code, b.code);
  });

  it('refuses bad fields and a duplicate whatever its case, and stores nothing for them', async () => {
    const before = (await listRedeemCodes(api().ctx.db)).length;
    await assert.rejects(create({ amount: 0 }), refusal(400, m.amountInvalid));
    await assert.rejects(create({ stock: 0 }), refusal(400, m.stockInvalid));
    await assert.rejects(create({ expiryDate: '2026-02-30' }), refusal(400, m.dateInvalid));
    // The CLI path refuses a day that has ended too; the end of today is still ahead.
    await assert.rejects(create({ expiryDate: '2020-01-01' }), refusal(400, m.datePast));
    const today = expiryDayOf(api().clock.now);
    assert.equal((await create({ expiryDate: today })).expiryDate, today);
    await create({ code: `Dup${process.pid}` });
    await assert.rejects(create({ code: `  dUP${process.pid} ` }), refusal(409, m.duplicate));
    assert.equal((await listRedeemCodes(api().ctx.db)).length, before + 2);
  });

  it('refuses an amount or stock past its bound (a typo must not reach the database or a profile)', async () => {
    const before = (await listRedeemCodes(api().ctx.db)).length;
    // 10^12 days overflows every expiry date; 3e9 does not fit PostgreSQL's INTEGER (a crash, not a refusal).
    await assert.rejects(create({ type: 'ServerTime', amount: 1e12 }), refusal(400, m.amountInvalid));
    await assert.rejects(create({ amount: REDEEM_AMOUNT_MAX + 1 }), refusal(400, m.amountInvalid));
    await assert.rejects(create({ stock: 3e9 }), refusal(400, m.stockInvalid));
    await assert.rejects(create({ stock: REDEEM_STOCK_MAX + 1 }), refusal(400, m.stockInvalid));
    assert.equal((await listRedeemCodes(api().ctx.db)).length, before);
    const largest = await create({ type: 'ServerTime', amount: REDEEM_AMOUNT_MAX, stock: REDEEM_STOCK_MAX });
    assert.equal(largest.amount, REDEEM_AMOUNT_MAX);
    assert.equal(largest.stock, REDEEM_STOCK_MAX);
  });

  it('lists codes newest first with who claimed them, and deletes them', async () => {
    const s = await signInRegistered(api());
    const code = (await create({ type: 'ServerTime', amount: 2, stock: 3, isPublic: true, expiryDate: '2099-01-31' }))
      .code;
    assert.equal(
      (await api().request('POST', `/users/${s.user.id}/redeem`, { token: s.sessionToken, body: { code } })).status,
      200,
    );
    const listed = (await listRedeemCodes(api().ctx.db)).find((c) => c.code === code);
    assert.deepEqual(
      { ...listed, createdAt: undefined },
      {
        code,
        type: 'ServerTime',
        amount: 2,
        reward: '2 Days Server Time',
        stock: 3,
        claimed: 1,
        claimedBy: [s.growId],
        createdBy: 'admin1',
        expiryDate: '2099-01-31',
        isPublic: true,
        createdAt: undefined,
      },
    );
    await deleteRedeemCode(api().ctx.db, code.toLowerCase());
    assert.equal(
      (await listRedeemCodes(api().ctx.db)).find((c) => c.code === code),
      undefined,
    );
    await assert.rejects(deleteRedeemCode(api().ctx.db, code), refusal(404, m.codeMissing));
    // The history keeps what the user redeemed.
    const profile = await api().request('GET', `/users/${s.user.id}/profile`, { token: s.sessionToken });
    assert.deepEqual(
      profile.body.profile.redeemedCodes.map((c: { code: string; reward: string }) => [c.code, c.reward]),
      [[code, '2 Days Server Time']],
    );
  });
});

it('the codes CLI creates, lists and deletes codes in the api database', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-codes-cli-'));
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['scripts/codes.ts', ...args], {
      cwd: new URL('../../../', import.meta.url).pathname,
      env: { ...process.env, CANOPY_DATA_DIR: dataDir, DATABASE_URL: '' },
    });
  try {
    const created = await run(
      'create',
      '--type',
      'Slot',
      '--amount',
      '2',
      '--stock',
      '5',
      '--suffix',
      'wk',
      '--public',
    );
    const code = created.stdout.split('\n')[0] ?? '';
    assert.match(code, /-WK$/);
    assert.match((await run('list')).stdout, new RegExp(`${code}\\s+2 Slots\\s+claimed 0/5\\s+public\\s+no expiry`));
    await assert.rejects(run('create', '--type', 'Slot', '--amount', '0', '--stock', '1'), (e: { stderr: string }) =>
      e.stderr.includes(m.amountInvalid),
    );
    await run('delete', code.toLowerCase());
    assert.match((await run('list')).stdout, /^no codes$/m);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
