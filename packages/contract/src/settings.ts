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
