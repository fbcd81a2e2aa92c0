import { z } from 'zod';

/** Platform-wide switches set by admins; every flag defaults to false. */
export const settingsSchema = z.object({
  maintenance: z.boolean(),
  disableServerCreation: z.boolean(),
  disableServerActions: z.boolean(),
  disableBackupManager: z.boolean(),
  disableShop: z.boolean(),
  disableGeneralConfig: z.boolean(),
  disableNewbieKit: z.boolean(),
  disableCustomItems: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;

export const settingKeys = Object.keys(settingsSchema.shape) as SettingKey[];

export const defaultSettings: Settings = {
  maintenance: false,
  disableServerCreation: false,
  disableServerActions: false,
  disableBackupManager: false,
  disableShop: false,
  disableGeneralConfig: false,
  disableNewbieKit: false,
  disableCustomItems: false,
};

/**
 * The version of the stored settings (ADR 0035): a hash of the eight values, as GET /admin/settings answers it
 * (body and ETag) and a save names it back (If-Match or the body's `version`).
 */
export const settingsVersionSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'version must be the one GET /admin/settings answered.');

/** Answer of GET /admin/settings: the switches and their version. */
export const settingsResponseSchema = settingsSchema.extend({ version: settingsVersionSchema });
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/**
 * Body of POST /admin/settings: the whole settings object; with `version`, the save is refused (409) when the
 * stored settings changed since that version was read. Without it the save writes as before (ADR 0035).
 */
export const settingsSaveRequestSchema = settingsSchema.extend({ version: settingsVersionSchema.optional() }).strict();

/** Answer of POST /admin/settings: the settings now stored and their version. */
export const settingsSaveResponseSchema = z.object({
  message: z.string(),
  settings: settingsSchema,
  version: settingsVersionSchema,
});
export type SettingsSaveResponse = z.infer<typeof settingsSaveResponseSchema>;
