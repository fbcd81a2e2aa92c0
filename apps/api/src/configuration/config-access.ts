import { messages, type Settings } from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { forbidden } from '../errors.ts';

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
