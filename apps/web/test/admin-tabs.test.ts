import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminPermissionPresets, adminPermissions, adminTabs, visibleAdminTabs } from '@canopy/contract';
import { chooseAdminTab } from '../src/features/admin/admin-tab-param.ts';

const admin = (permissions: readonly string[]) => ({ isAdmin: true, isSuperAdmin: false, permissions });
const labels = (permissions: readonly string[]) => visibleAdminTabs(admin(permissions)).map((t) => t.label);
const preset = (name: string) => adminPermissionPresets.find((p) => p.name === name)?.permissions ?? [];

describe('admin tabs', () => {
  it('shows a super admin every tab, Permissions included, in the sidebar order', () => {
    const all = visibleAdminTabs({ isAdmin: true, isSuperAdmin: true, permissions: [] });
    assert.deepEqual(
      all.map((t) => t.label),
      adminTabs.map((t) => t.label),
    );
    assert.ok(all.some((t) => t.label === 'Permissions'));
  });

  it('shows an admin only the tabs of their permissions, never Permissions', () => {
    assert.deepEqual(labels([]), []);
    assert.deepEqual(labels(['dashboard:view']), ['Dashboard', 'Storage Analytics']);
    assert.deepEqual(labels(['bans:view', 'settings:view']), ['Banned Servers', 'Ban Logs', 'Settings']);
    assert.ok(!labels(adminPermissions).includes('Permissions'));
  });

  it('gives the Moderator preset exactly the view tabs the admin document lists', () => {
    assert.deepEqual(labels(preset('Moderator')), [
      'Dashboard',
      'Storage Analytics',
      'Users',
      'Servers',
      'Feedback',
      'Banned Servers',
      'Ban Logs',
      'Activity Logs',
    ]);
  });

  it('shows nothing to a user who is not an admin, whatever permissions are stored', () => {
    const tabs = visibleAdminTabs({ isAdmin: false, isSuperAdmin: false, permissions: adminPermissions });
    assert.deepEqual(tabs, []);
  });

  it('opens the tab named in the address only when it is visible, else the first one', () => {
    const visible = visibleAdminTabs(admin(['users:view', 'logs:view']));
    assert.equal(chooseAdminTab('activity-logs', visible), 'activity-logs');
    assert.equal(chooseAdminTab('settings', visible), 'users');
    assert.equal(chooseAdminTab(null, visible), 'users');
    assert.equal(chooseAdminTab('users', []), null);
  });
});
