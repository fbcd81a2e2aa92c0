import { signIn, signInAdmin } from './factories.ts';
import type { TestApi } from './harness.ts';

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
