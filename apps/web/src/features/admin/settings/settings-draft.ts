import { type Settings, settingKeys } from '@canopy/contract';

/** The switches whose draft value differs from the saved one, in the contract's order. */
export function changedSettings(saved: Settings, draft: Settings): (keyof Settings)[] {
  return settingKeys.filter((key) => saved[key] !== draft[key]);
}

/** True when the draft would change something: Save stays disabled until it does. */
export function isSettingsDirty(saved: Settings, draft: Settings | null): boolean {
  return draft !== null && changedSettings(saved, draft).length > 0;
}

/**
 * What Save posts: the admin's changed switches laid over the freshest stored settings. The api takes the whole
 * object, so posting the draft as loaded would undo another admin's save made since this tab loaded.
 */
export function mergeSettingsChanges(saved: Settings, draft: Settings, fresh: Settings): Settings {
  const merged = { ...fresh };
  for (const key of changedSettings(saved, draft)) merged[key] = draft[key];
  return merged;
}
