import { chmod, link, rm, stat, unlink } from 'node:fs/promises';
import type { BackupStoreConfig } from '../config/backup-store.ts';
import type { Config } from '../config.ts';
import { PRIVATE_FILE } from '../private-files.ts';
import { BACKUP_NAME, backupDir, backupFile, backupsRoot, fsyncPath, list } from './backup-files.ts';
import { S3BackupStore } from './s3-backup-store.ts';

/** Which backup an operation is about: the account's, as its row records it. */
export interface BackupRef {
  owner_id: string;
  sha256: string;
}

/** What a store holds for one account (reconcile compares it with the rows). */
export interface StoredBackup {
  ownerId: string;
  /** Undefined where the store's names do not carry it (the directory store keeps one file per account). */
  sha256?: string;
  bytes: number;
  modifiedAt: number;
}

/**
 * Where accounts' backups are kept (ADR 0037). A backup is made and verified in a local file first; `put` then
 * stores it whole or not at all and never replaces another stored backup, so the row that records it is written
 * only after `put` returns, and a failed put leaves whatever was stored before as it was.
 */
export interface BackupStore {
  readonly kind: 'directory' | 's3';
  /** Stores the finished local file `file` (of `ref.sha256`, `bytes` long) as the account's backup. */
  put(ref: BackupRef, file: string, bytes: number): Promise<void>;
  /**
   * A local path holding the backup, for a restore to verify and copy: the store's own file, or `scratch`
   * after a download (the caller removes `scratch`). Null when the store does not have it.
   */
  localCopy(ref: BackupRef, scratch: string): Promise<string | null>;
  /** Removes the backup (nothing when it is not there). */
  delete(ref: BackupRef): Promise<void>;
  /** Size of the stored backup, or null when the store does not have it. */
  stat(ref: BackupRef): Promise<{ bytes: number } | null>;
  /** Everything stored, for reconcile. */
  list(): Promise<StoredBackup[]>;
}

/** The store that the configuration names. */
export function createBackupStore(dataDir: string, config: BackupStoreConfig): BackupStore {
  return config.kind === 's3' ? new S3BackupStore(config) : new DirectoryBackupStore(dataDir);
}

// One store (one S3 client and its connection pool) per api, made on first use; keyed by the api's config, so
// that several apis in one process (tests) each get their own.
const stores = new WeakMap<Config, BackupStore>();

/** The api's backup store (made once per configuration). */
export function backupStore(ctx: { config: Config }): BackupStore {
  let store = stores.get(ctx.config);
  if (!store) {
    store = createBackupStore(ctx.config.dataDir, ctx.config.backupStore);
    stores.set(ctx.config, store);
  }
  return store;
}

/** Today's layout: `<data dir>/backups/<owner id>/backup.db`, one file per account (backup-files.ts). */
export class DirectoryBackupStore implements BackupStore {
  readonly kind = 'directory';
  private readonly dataDir: string;
  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /**
   * Hard-links the finished file (0600, synced) to backup.db and removes the temporary name: a link never
   * replaces an existing file (EEXIST), so two creates racing past the row check cannot clobber each other.
   * `file` must be in the owner's folder (backupDir), as the create's temporary files are.
   */
  async put(ref: BackupRef, file: string): Promise<void> {
    const final = backupFile(this.dataDir, ref.owner_id);
    await chmod(file, PRIVATE_FILE);
    await fsyncPath(file);
    await link(file, final);
    await unlink(file).catch(() => {});
    await fsyncPath(backupDir(this.dataDir, ref.owner_id));
  }

  async localCopy(ref: BackupRef): Promise<string | null> {
    const file = backupFile(this.dataDir, ref.owner_id);
    return (await this.stat(ref)) ? file : null;
  }

  async delete(ref: BackupRef): Promise<void> {
    await rm(backupFile(this.dataDir, ref.owner_id), { force: true });
  }

  async stat(ref: BackupRef): Promise<{ bytes: number } | null> {
    return stat(backupFile(this.dataDir, ref.owner_id)).then(
      (s) => ({ bytes: s.size }),
      () => null,
    );
  }

  async list(): Promise<StoredBackup[]> {
    const found: StoredBackup[] = [];
    for (const ownerId of await list(backupsRoot(this.dataDir))) {
      if (!(await list(backupDir(this.dataDir, ownerId))).includes(BACKUP_NAME)) continue;
      const s = await stat(backupFile(this.dataDir, ownerId)).catch(() => null);
      if (s) found.push({ ownerId, bytes: s.size, modifiedAt: s.mtimeMs });
    }
    return found;
  }
}
