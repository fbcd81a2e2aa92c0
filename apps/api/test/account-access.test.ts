import assert from 'node:assert/strict';
import { it } from 'node:test';
import { feedbackMessages, messages, redeemMessages } from '@canopy/contract';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';
import { HUGE, streamBody } from './support/stream-body.ts';

const ban = (api: TestApi, id: string) =>
  sql(api, "UPDATE users SET is_banned = 1, ban_reason = 'spam', ban_expires = NULL WHERE id = ?", [id]);

describeEachDatabase('account routes decide access before reading the body', (api) => {
  const expectRefusal = async (path: string, token: string, status: number, error: string, code: string) => {
    const res = await streamBody(api(), 'POST', path, token);
    assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(res.body, { error, code });
    assert.ok(res.sent < HUGE, `${path} answered only after ${res.sent} bytes`);
  };

  it('POST /users/:id/redeem: another account, unregistered, banned', async () => {
    const owner = await signInRegistered(api());
    const unregistered = await signIn(api());
    const banned = await signInRegistered(api());
    await ban(api(), banned.user.id);
    const notYours = [messages.missingPermission, 'not_your_account'] as const;
    await expectRefusal(`/users/${owner.user.id}/redeem`, unregistered.sessionToken, 403, ...notYours);
    await expectRefusal(
      `/users/${unregistered.user.id}/redeem`,
      unregistered.sessionToken,
      403,
      messages.notRegistered,
      'not_registered',
    );
    await expectRefusal(`/users/${banned.user.id}/redeem`, banned.sessionToken, 403, redeemMessages.banned, 'banned');
  });

  it('POST /users/:id/shop/checkout: another account, banned, shop switched off', async () => {
    const owner = await signInRegistered(api());
    const other = await signInRegistered(api());
    await expectRefusal(
      `/users/${owner.user.id}/shop/checkout`,
      other.sessionToken,
      403,
      messages.missingPermission,
      'not_your_account',
    );
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('disableShop', 'true')");
    try {
      await expectRefusal(
        `/users/${other.user.id}/shop/checkout`,
        other.sessionToken,
        403,
        messages.featureDisabled,
        'feature_disabled',
      );
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'disableShop'");
    }
    await ban(api(), other.user.id);
    await expectRefusal(
      `/users/${other.user.id}/shop/checkout`,
      other.sessionToken,
      403,
      messages.bannedPage,
      'banned',
    );
  });

  it('POST /feedback: unregistered, banned', async () => {
    const unregistered = await signIn(api());
    await expectRefusal('/feedback', unregistered.sessionToken, 403, messages.notRegistered, 'not_registered');
    const banned = await signInRegistered(api());
    await ban(api(), banned.user.id);
    await expectRefusal('/feedback', banned.sessionToken, 403, feedbackMessages.banned, 'banned');
  });

  it('POST /ai/chat: unregistered', async () => {
    const unregistered = await signIn(api());
    await expectRefusal('/ai/chat', unregistered.sessionToken, 403, messages.notRegistered, 'not_registered');
  });

  it('maintenance: redeem, checkout and feedback answer 503 before the body (admins pass it)', async () => {
    const user = await signInRegistered(api());
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('maintenance', 'true')");
    try {
      for (const path of [`/users/${user.user.id}/redeem`, `/users/${user.user.id}/shop/checkout`, '/feedback'])
        await expectRefusal(path, user.sessionToken, 503, messages.maintenance, 'maintenance');
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'maintenance'");
    }
  });
});
