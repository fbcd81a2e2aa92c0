import { messages, type Settings } from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { logSaved } from '../server-data/engine-proxy.ts';

/** The admin switch that locks each part of the Configuration page for regular users. */
export type ConfigFeature = keyof Pick<Settings, 'disableGeneralConfig' | 'disableNewbieKit'>;

/** Refuses a regular user (403) while an admin has switched the feature off; admins bypass it. */
export function assertFeatureOn(access: ServerAccess, feature: ConfigFeature): void {
  if (access.settings[feature] && !access.isAdmin) throw forbidden(messages.featureDisabled, 'feature_disabled');
}

const nothingToRelease = () => {};

/** A route's `admit` step that refuses a locked feature before the request's body is read. */
export function featureGate(feature: ConfigFeature) {
  return async ({ server }: { server: ServerAccess }) => {
    assertFeatureOn(server, feature);
    return nothingToRelease;
  };
}

/** Records a saved configuration change in the activity log (a failing entry does not undo the save). */
export function logConfigChange(ctx: AppContext, { user, server }: ServerAccess, action: string, details: string) {
  return logSaved(ctx, () =>
    activityRepo.add(
      ctx.db,
      {
        action,
        actorType: user.is_admin === 1 ? 'Admin' : 'User',
        actorName: user.grow_id ?? user.username,
        details: `${server.name}: ${details}`,
      },
      ctx.now(),
    ),
  );
}
