import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  adminContentMessages,
  adminPermissionPresets,
  adminPermissions,
  adminRoleLabels,
  adminRoleMessages,
  discordIdSchema,
} from '@canopy/contract';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiSignIn, apiSignInRegistered } from './support/api.ts';
import { ADMIN_USERNAME } from './support/app.ts';
import { signInWithDevProvider } from './support/browser.ts';
import { toast } from './support/pages.ts';
import { useApp } from './support/suite.ts';

const moderatorPreset = adminPermissionPresets.find((p) => p.name === 'Moderator')?.permissions ?? [];
/** The contract's refusal of a Discord ID that is not 17 to 20 digits. */
const discordIdInvalid = discordIdSchema.safeParse('12345').error?.issues[0]?.message ?? '';

/** A fresh context signed in as `username` (registered over the api before), on the dashboard. */
async function signedIn(browser: Browser, baseUrl: string, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInWithDevProvider(page, baseUrl, username);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}

describe('admin permissions: promoting, presets and what a moderator may do', () => {
  const suite = useApp();
  let admin = { token: '', id: '' };
  let mod = { token: '', id: '' };
  let plain = { token: '', id: '' };
  let feedbackId = '';

  before(async () => {
    admin = await apiSignInRegistered(suite.app.url, ADMIN_USERNAME, 'AdminOne');
    mod = await apiSignInRegistered(suite.app.url, 'moddy', 'ModOne');
    plain = await apiSignInRegistered(suite.app.url, 'plain', 'PlainOne');
    const sent = await apiCall(suite.app.url, plain.token, 'POST', '/feedback', {
      type: 'Bug Report',
      message: 'The map does not load.',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const list = await apiCall(suite.app.url, admin.token, 'GET', '/admin/feedback');
    feedbackId = list.body.items[0].id;
  });

  it('the super admin promotes a user by Discord ID, applies the Moderator preset, and creates a code', async () => {
    const page = await signedIn(suite.browser, suite.app.url, ADMIN_USERNAME);
    await page.goto(`${suite.app.url}/admin?tab=permissions`);
    // The own row cannot be changed.
    const own = page.locator(`[data-testid="admin-account-row"][data-id="${admin.id}"]`);
    await own.getByText(adminRoleMessages.cannotModifySelf).waitFor();
    assert.equal(await own.getByRole('button', { name: 'Demote to Admin' }).isDisabled(), true);

    await page.getByLabel('Discord ID').fill('12345');
    await page.getByRole('button', { name: 'Promote', exact: true }).click();
    await page.getByText(discordIdInvalid).waitFor();
    await page.getByLabel('Discord ID').fill(mod.id);
    await page.getByRole('button', { name: 'Promote', exact: true }).click();
    await toast(page, adminRoleMessages.promoted('ModOne'));

    const row = page.locator(`[data-testid="admin-account-row"][data-id="${mod.id}"]`);
    await row.getByRole('button', { name: 'Edit permissions' }).click();
    const editor = page.getByTestId('permission-editor');
    await editor.getByRole('button', { name: 'Moderator' }).click();
    assert.equal(await editor.getByLabel('feedback:view').isChecked(), true);
    assert.equal(await editor.getByLabel('feedback:manage').isChecked(), false);
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await toast(page, adminRoleMessages.permissionsSaved('ModOne'));
    await row.getByText(`${moderatorPreset.length} of ${adminPermissions.length}`).waitFor();
    const stored = await apiCall(suite.app.url, admin.token, 'GET', `/admin/admins/${mod.id}/permissions`);
    assert.deepEqual([...stored.body.permissions].sort(), [...moderatorPreset].sort());

    // A role move asks first: Cancel changes nothing, the dialog's button moves.
    const isSuper = async () =>
      (await apiCall(suite.app.url, admin.token, 'GET', '/admin/admins')).body.items.find(
        (a: { id: string }) => a.id === mod.id,
      )?.isSuperAdmin;
    await row.getByRole('button', { name: 'Promote to Super Admin' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(adminRoleLabels.promoteSuperConfirm('moddy')).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal(await isSuper(), false);
    await row.getByRole('button', { name: 'Promote to Super Admin' }).click();
    await confirm.getByRole('button', { name: 'Promote to Super Admin' }).click();
    await toast(page, adminRoleMessages.promotedSuper('ModOne'));
    assert.equal(await isSuper(), true);
    await row.getByRole('button', { name: 'Demote to Admin' }).click();
    await confirm.getByText(adminRoleLabels.demoteSuperConfirm('moddy')).waitFor();
    await confirm.getByRole('button', { name: 'Demote to Admin' }).click();
    await toast(page, adminRoleMessages.demotedSuper('ModOne'));
    assert.equal(await isSuper(), false);

    await page.goto(`${suite.app.url}/admin?tab=redeem-codes`);
    await page.getByRole('button', { name: 'Create Code' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Amount').fill('3');
    await dialog.getByLabel('Stock').fill('2');
    await dialog.getByLabel(/Public/).check();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const code = (await page.getByTestId('admin-code-created-text').textContent())?.trim() ?? '';
    assert.match(code, /^[A-Z0-9-]{6,}$/);
    await toast(page, adminContentMessages.codeCreated(code));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.locator(`[data-testid="admin-code-row"][data-code="${code}"]`).waitFor();

    const listed = await apiCall(suite.app.url, admin.token, 'GET', `/admin/redeem-codes?search=${code}`);
    assert.deepEqual(
      listed.body.items.map((c: { code: string; amount: number; stock: number; isPublic: boolean }) => [
        c.code,
        c.amount,
        c.stock,
        c.isPublic,
      ]),
      [[code, 3, 2, true]],
    );
    const redeemed = await apiCall(suite.app.url, plain.token, 'POST', `/users/${plain.id}/redeem`, { code });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
  });

  it('the moderator sees only their tabs and cannot write; a regular user is sent to the dashboard', async () => {
    // The moderator is set up here too, so this test does not rely on the one before (the answers are 200, or
    // 409 when that test already promoted them).
    const promoted = await apiCall(suite.app.url, admin.token, 'POST', '/admin/admins', { discordId: mod.id });
    assert.ok([200, 409].includes(promoted.status), JSON.stringify(promoted.body));
    const granted = await apiCall(suite.app.url, admin.token, 'PUT', `/admin/admins/${mod.id}/permissions`, {
      permissions: moderatorPreset,
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    const page = await signedIn(suite.browser, suite.app.url, 'moddy');
    await page.goto(`${suite.app.url}/admin`);
    const sidebar = page.getByTestId('admin-sidebar');
    await sidebar.getByRole('button').first().waitFor();
    assert.deepEqual(await sidebar.getByRole('button').allTextContents(), [
      'Dashboard',
      'Storage Analytics',
      'Users',
      'Servers',
      'Feedback',
      'Banned Servers',
      'Ban Logs',
      'Activity Logs',
    ]);

    // A tab outside the moderator's permissions: the first tab shows, and the address names it.
    await page.goto(`${suite.app.url}/admin?tab=redeem-codes`);
    await page.locator('[data-testid="admin-tab"][data-tab="dashboard"]').waitFor();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'dashboard');

    await page.goto(`${suite.app.url}/admin?tab=feedback`);
    const entry = page.locator(`[data-testid="admin-feedback-entry"][data-id="${feedbackId}"]`);
    await entry.getByText('The map does not load.').waitFor();
    assert.equal(await entry.getByRole('combobox').isDisabled(), true);
    assert.equal(await entry.getByRole('button', { name: 'Delete' }).count(), 0);

    // The api refuses the moderator's writes and the refused writes change nothing.
    const moderator = await apiSignIn(suite.app.url, 'moddy');
    const userBefore = await apiCall(suite.app.url, admin.token, 'GET', '/admin/all-users?search=PlainOne');
    const settings = (await apiCall(suite.app.url, admin.token, 'GET', '/admin/settings')).body;
    const refused = [
      await apiCall(suite.app.url, moderator.token, 'POST', `/admin/users/${plain.id}/expiry`, {
        action: 'add',
        amount: 5,
      }),
      await apiCall(suite.app.url, moderator.token, 'POST', '/admin/settings', { ...settings, maintenance: true }),
      await apiCall(suite.app.url, moderator.token, 'PUT', `/admin/feedback/${feedbackId}/status`, {
        status: 'Resolved',
      }),
    ];
    assert.deepEqual(
      refused.map((r) => r.status),
      [403, 403, 403],
    );
    const users = await apiCall(suite.app.url, moderator.token, 'GET', '/admin/all-users?search=PlainOne');
    assert.equal(users.status, 200);
    assert.deepEqual(users.body, userBefore.body);
    assert.equal((await apiCall(suite.app.url, admin.token, 'GET', '/admin/settings')).body.maintenance, false);
    const feedback = await apiCall(suite.app.url, admin.token, 'GET', '/admin/feedback');
    assert.equal(feedback.body.items.find((f: { id: string }) => f.id === feedbackId).status, 'New');

    const regular = await signedIn(suite.browser, suite.app.url, 'plain');
    await regular.goto(`${suite.app.url}/admin`);
    await regular.waitForURL(/\/dashboard$/);
    await regular.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('an admin removed while their panel is open leaves it at their next refused call', async () => {
    const gone = await apiSignInRegistered(suite.app.url, 'goner', 'GoneOne');
    const promoted = await apiCall(suite.app.url, admin.token, 'POST', '/admin/admins', { discordId: gone.id });
    assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
    const granted = await apiCall(suite.app.url, admin.token, 'PUT', `/admin/admins/${gone.id}/permissions`, {
      permissions: moderatorPreset,
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    const page = await signedIn(suite.browser, suite.app.url, 'goner');
    await page.goto(`${suite.app.url}/admin?tab=users`);
    await page.getByTestId('admin-user-row').first().waitFor();

    const removed = await apiCall(suite.app.url, admin.token, 'DELETE', `/admin/admins/${gone.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    // The next tab's list is refused (403): the panel reloads the profile, which says they are no admin now.
    await page.getByTestId('admin-sidebar').getByRole('button', { name: 'Ban Logs' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });
});
