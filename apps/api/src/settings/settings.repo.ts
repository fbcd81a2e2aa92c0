import { defaultSettings, type Settings, settingKeys } from '@canopy/contract';
import type { Db } from '../db/db.ts';

/** Global switches; a flag never written holds its default (false). */
export const settingsRepo = {
  async load(db: Db): Promise<Settings> {
    const rows = await db.all<{ key: string; value: string }>('SELECT key, value FROM settings');
    const settings = { ...defaultSettings };
    for (const row of rows) if (row.key in settings) settings[row.key as keyof Settings] = row.value === 'true';
    return settings;
  },
  /**
   * Holds other settings writers off until the transaction ends (PostgreSQL; SQLite runs one writer at a time),
   * so a read of the stored settings stays true until the write; plain reads are not blocked.
   */
  async lockForWrite(tx: Db): Promise<void> {
    if (tx.dialect === 'postgres') await tx.run('LOCK TABLE settings IN SHARE ROW EXCLUSIVE MODE');
  },
  async save(db: Db, settings: Settings): Promise<void> {
    await db.transaction(async (tx) => {
      for (const key of settingKeys)
        await tx.run(
          'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
          [key, String(settings[key])],
        );
    });
  },
};
