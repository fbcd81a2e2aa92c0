import { signIn } from './factories.ts';
import type { TestApi } from './harness.ts';
import { sql } from './servers.ts';

/** A signed-in admin holding exactly these permission strings, or a super admin ('super'). */
export async function signInAdmin(api: TestApi, permissions: string[] | 'super') {
  const session = await signIn(api);
  if (permissions === 'super')
    await sql(api, 'UPDATE users SET is_admin = 1, is_super_admin = 1 WHERE id = ?', [session.user.id]);
  else
    await sql(api, 'UPDATE users SET is_admin = 1, admin_permissions = ? WHERE id = ?', [
      JSON.stringify(permissions),
      session.user.id,
    ]);
  return session;
}

/**
 * The callers of the admin access matrix for a route guarded by `permission` (view-only: the area's view
 * permission, which must not open a write). Tokens; undefined is signed out.
 */
export async function accessCallers(api: TestApi, permission: string) {
  const area = permission.split(':')[0];
  const viewOnly = `${area}:view`;
  const others = ['dashboard:view', 'users:view', 'logs:view', 'servers:view'].filter(
    (p) => p !== permission && p !== viewOnly,
  );
  return {
    signedOut: undefined,
    plainUser: (await signIn(api)).sessionToken,
    adminWithout: (await signInAdmin(api, others)).sessionToken,
    viewOnly: permission === viewOnly ? undefined : (await signInAdmin(api, [viewOnly])).sessionToken,
    withPermission: (await signInAdmin(api, [permission])).sessionToken,
    superAdmin: (await signInAdmin(api, 'super')).sessionToken,
  };
}
