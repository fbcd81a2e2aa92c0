import { createHash } from 'node:crypto';
import {
  messages,
  type SettingKey,
  type Settings,
  type SettingsResponse,
  type SettingsSaveResponse,
  settingKeys,
  versionedWriteCodes,
  versionedWriteMessages,
} from '@canopy/contract';
import { activityRepo } from '../activity/activity.repo.ts';
import { adminActor } from '../admin/content/admin-actor.ts';
import type { AppContext } from '../context.ts';
import { conflict } from '../errors.ts';
import type { UserRow } from '../users/users.repo.ts';
import { settingsRepo } from './settings.repo.ts';

/** What each switch turns off, as the activity log names it ('Shop disabled', 'Shop enabled'). */
const switchedOff: Record<Exclude<SettingKey, 'maintenance'>, string> = {
  disableServerCreation: 'Server creation',
  disableServerActions: 'Server actions',
  disableBackupManager: 'Backup Manager',
  disableShop: 'Shop',
  disableGeneralConfig: 'General configuration',
  disableNewbieKit: 'Newbie Kit',
  disableCustomItems: 'Custom items',
};

/** The activity log's action for one switch set to `on`: 'Maintenance mode turned on', 'Shop disabled'. */
export function settingChangeAction(key: SettingKey, on: boolean): string {
  if (key === 'maintenance') return `Maintenance mode turned ${on ? 'on' : 'off'}`;
  return `${switchedOff[key]} ${on ? 'disabled' : 'enabled'}`;
}

/**
 * The version of a settings object (ADR 0035): a hash of its values in the contract's order. Equal settings have
 * equal versions, so a never-written switch and one saved as false read alike, and switches changed and changed
 * back count as unchanged (a save made on that version undoes nothing).
 */
export function settingsVersion(settings: Settings): string {
  const values = settingKeys.map((key) => settings[key]);
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 32);
}

/** GET /admin/settings: the stored switches with their version. */
export async function readSettings(ctx: AppContext): Promise<SettingsResponse> {
  const settings = await settingsRepo.load(ctx.db);
  return { ...settings, version: settingsVersion(settings) };
}

/**
 * POST /admin/settings: stores the whole settings object and logs one activity entry per switch that changed,
 * in the admin's name, in the same transaction. The stored settings are read under a lock, so two admins
 * saving at once each log what their own save changed; a save that changes nothing logs nothing.
 * With `expected` (the version the admin read), the save is refused with a 409 when the stored settings are no
 * longer that version: compared under the same lock as the write, so of two saves naming one version exactly
 * one passes. Without it the save writes as before (ADR 0035: the spec's clients send none).
 */
export async function saveSettings(
  ctx: AppContext,
  admin: UserRow,
  next: Settings,
  expected?: string,
): Promise<SettingsSaveResponse> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await settingsRepo.lockForWrite(tx);
    const before = await settingsRepo.load(tx);
    if (expected !== undefined && settingsVersion(before) !== expected)
      throw conflict(versionedWriteMessages.settingsChanged, versionedWriteCodes.conflict);
    const changed = settingKeys.filter((key) => before[key] !== next[key]);
    if (changed.length === 0) return;
    await settingsRepo.save(tx, next);
    for (const key of changed)
      await activityRepo.add(
        tx,
        {
          action: settingChangeAction(key, next[key]),
          ...adminActor(admin),
          details: `${key}: ${before[key]} → ${next[key]}`,
        },
        now,
      );
  });
  return { message: messages.settingsSaved, settings: next, version: settingsVersion(next) };
}
