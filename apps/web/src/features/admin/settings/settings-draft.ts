import { type Settings, settingKeys } from '@canopy/contract';

/** The switches whose draft value differs from the saved one, in the contract's order. */
export function changedSettings(saved: Settings, draft: Settings): (keyof Settings)[] {
  return settingKeys.filter((key) => saved[key] !== draft[key]);
}

/** True when the draft would change something: Save stays disabled until it does. */
export function isSettingsDirty(saved: Settings, draft: Settings | null): boolean {
  return draft !== null && changedSettings(saved, draft).length > 0;
}
