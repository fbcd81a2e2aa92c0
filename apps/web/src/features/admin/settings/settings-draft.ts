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
 * What Save posts: the eight switches of the draft, without the version the loaded settings carry (it goes as
 * If-Match). The save names the version the tab loaded, so another admin's save since is a 409 (ADR 0035)
 * instead of being undone by this whole-object write.
 */
export function settingsBody(draft: Settings): Settings {
  const body = {} as Settings;
  for (const key of settingKeys) body[key] = draft[key];
  return body;
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

/**
 * The edits still to save once the settings are reloaded (Reload after a 409): the switches the latest settings
 * already hold (another admin saved the same change) are dropped; the rest stay on top, for the admin to check and
 * save again.
 */
export function rebaseEdits(fresh: Settings, edits: SettingsEdits): SettingsEdits {
  const kept: SettingsEdits = {};
  for (const key of settingKeys) if (edits[key] !== undefined && edits[key] !== fresh[key]) kept[key] = edits[key];
  return kept;
}
