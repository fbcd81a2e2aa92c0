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

/** The switches the admin has flipped and not saved, by key; kept apart from the saved settings they lay over. */
export type SettingsEdits = Partial<Settings>;

/** The edits after flipping `key` to `value`: a switch set back to its saved value is no longer an edit. */
export function withEdit(saved: Settings, edits: SettingsEdits, key: keyof Settings, value: boolean): SettingsEdits {
  const next = { ...edits, [key]: value };
  for (const k of settingKeys) if (next[k] === saved[k]) delete next[k];
  return next;
}

/**
 * The draft the form shows and Save posts: the edits over the saved settings, or null when none differs (also
 * when the saved settings have since caught up with an edit, e.g. another admin saved the same change).
 */
export function draftOf(saved: Settings, edits: SettingsEdits): Settings | null {
  const draft = { ...saved, ...edits };
  return changedSettings(saved, draft).length > 0 ? draft : null;
}
