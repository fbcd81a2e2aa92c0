import { messages, type SettingKey, type Settings, settingKeys } from '@canopy/contract';
import { activityRepo } from '../activity/activity.repo.ts';
import { adminActor } from '../admin/content/admin-actor.ts';
import type { AppContext } from '../context.ts';
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
 * POST /admin/settings: stores the whole settings object and logs one activity entry per switch that changed,
 * in the admin's name, in the same transaction. The stored settings are read under a lock, so two admins
 * saving at once each log what their own save changed; a save that changes nothing logs nothing.
 */
export async function saveSettings(ctx: AppContext, admin: UserRow, next: Settings) {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await settingsRepo.lockForWrite(tx);
    const before = await settingsRepo.load(tx);
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
  return { message: messages.settingsSaved, settings: next };
}
