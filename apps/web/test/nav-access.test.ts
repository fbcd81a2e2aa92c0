import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configurationMessages, defaultSettings, messages, webRoutes } from '@canopy/contract';
import { hiddenRouteExplains, type NavUser, navAccess, navItems } from '../src/features/shell/nav-access.ts';

const owner: NavUser = { isAdmin: false, isBanned: false, isCollaborator: false, serverOwned: 'MyServer' };
const paths = (user: NavUser, settings = defaultSettings) =>
  navItems(webRoutes, user, settings).map((i) => i.route.path);
const route = (path: string) => {
  const found = webRoutes.find((r) => r.path === path);
  if (!found) throw new Error(path);
  return found;
};

describe('navItems visibility', () => {
  it('lists the owner links in table order without admin', () => {
    assert.deepEqual(paths(owner), [
      '/dashboard',
      '/worlds',
      '/players',
      '/collaborators',
      '/alerts',
      '/backup',
      '/schedules',
      '/configuration',
      '/console',
      '/profile',
      '/redeem-code',
      '/renew',
      '/items',
      '/how-to-play',
      '/feedback',
    ]);
  });
  it('hides collaborators without a server', () => {
    assert.equal(paths({ ...owner, serverOwned: 'No Server' }).includes('/collaborators'), false);
  });
  it('hides collaborators and renew for a collaborator', () => {
    const p = paths({ ...owner, isCollaborator: true });
    assert.equal(p.includes('/collaborators'), false);
    assert.equal(p.includes('/renew'), false);
  });
  it('shows admin last for admins only', () => {
    assert.equal(paths({ ...owner, isAdmin: true }).at(-1), '/admin');
  });
});

describe('navAccess locks', () => {
  it('locks everything but four pages for a banned user', () => {
    const items = navItems(webRoutes, { ...owner, isBanned: true }, defaultSettings);
    const open = items.filter((i) => !i.locked).map((i) => i.route.path);
    assert.deepEqual(open, ['/dashboard', '/profile', '/how-to-play', '/feedback']);
    for (const i of items.filter((x) => x.locked)) assert.equal(i.reason, messages.bannedPage);
  });
  it('locks backup and renew when disabled', () => {
    const settings = { ...defaultSettings, disableBackupManager: true, disableShop: true };
    assert.deepEqual(navAccess(route('/backup'), owner, settings), {
      visible: true,
      locked: true,
      reason: 'This feature is currently disabled by an administrator.',
    });
    assert.deepEqual(navAccess(route('/renew'), owner, settings), {
      visible: true,
      locked: true,
      reason: messages.featureDisabled,
    });
    assert.deepEqual(navAccess(route('/worlds'), owner, settings), { visible: true, locked: false });
  });
  it('locks configuration only when all three sections are disabled', () => {
    const two = { ...defaultSettings, disableGeneralConfig: true, disableNewbieKit: true };
    assert.deepEqual(navAccess(route('/configuration'), owner, two), { visible: true, locked: false });
    const all = { ...two, disableCustomItems: true };
    assert.deepEqual(navAccess(route('/configuration'), owner, all), {
      visible: true,
      locked: true,
      reason: configurationMessages.allDisabled,
    });
  });
  it('lets admins bypass feature locks but not hide admin for them', () => {
    const all = {
      ...defaultSettings,
      disableBackupManager: true,
      disableShop: true,
      disableGeneralConfig: true,
      disableNewbieKit: true,
      disableCustomItems: true,
    };
    const admin = { ...owner, isAdmin: true };
    assert.equal(
      navItems(webRoutes, admin, all).some((i) => i.locked),
      false,
    );
  });
  it('reports hidden routes as not visible', () => {
    assert.deepEqual(navAccess(route('/admin'), owner, defaultSettings), { visible: false });
  });
});

describe('hiddenRouteExplains', () => {
  it('lets owner-only pages explain themselves and redirects the other hidden routes', () => {
    assert.equal(hiddenRouteExplains(route('/collaborators')), true);
    assert.equal(hiddenRouteExplains(route('/admin')), false);
    assert.equal(hiddenRouteExplains(route('/renew')), true);
  });
});
