import { z } from 'zod';

// Where accounts' backups are kept (ADR 0037): the data directory (default) or an S3-compatible object store
// (AWS S3, MinIO, Garage, R2, Backblaze B2). What config.ts reads for it and the checks across those variables.

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The environment variables of the backup store, spread into config.ts's schema. */
export const backupStoreEnv = {
  CANOPY_BACKUP_S3_BUCKET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be an S3 bucket name (3-63 lower-case letters, digits, . or -)',
      )
      .optional(),
  ),
  CANOPY_BACKUP_S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  CANOPY_BACKUP_S3_REGION: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(64).optional()),
  CANOPY_BACKUP_S3_PREFIX: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(512)
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "must be a key prefix of letters, digits and !_.*'()/- only")
      .optional(),
  ),
  CANOPY_BACKUP_S3_PATH_STYLE: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  AWS_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  AWS_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  AWS_SESSION_TOKEN: z.preprocess(emptyAsUndefined, z.string().optional()),
};

/** Backups in an S3-compatible bucket under `<prefix>backups/<owner id>/`. */
export interface S3BackupConfig {
  kind: 's3';
  bucket: string;
  /** Unset: AWS S3 itself for `region`. */
  endpoint?: string;
  region: string;
  /** Ends with '/' unless empty. */
  prefix: string;
  /** Path-style addressing (`endpoint/bucket/key`), as MinIO and Garage usually need. */
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Where backups are kept: `<data dir>/backups/` (the default) or an S3 bucket. */
export type BackupStoreConfig = { kind: 'directory' } | S3BackupConfig;

interface BackupStoreEnv {
  CANOPY_BACKUP_S3_BUCKET?: string | undefined;
  CANOPY_BACKUP_S3_ENDPOINT?: string | undefined;
  CANOPY_BACKUP_S3_REGION?: string | undefined;
  CANOPY_BACKUP_S3_PREFIX?: string | undefined;
  CANOPY_BACKUP_S3_PATH_STYLE?: 'true' | 'false' | undefined;
  AWS_ACCESS_KEY_ID?: string | undefined;
  AWS_SECRET_ACCESS_KEY?: string | undefined;
  AWS_SESSION_TOKEN?: string | undefined;
}

const S3_ONLY = [
  'CANOPY_BACKUP_S3_ENDPOINT',
  'CANOPY_BACKUP_S3_REGION',
  'CANOPY_BACKUP_S3_PREFIX',
  'CANOPY_BACKUP_S3_PATH_STYLE',
] as const;

/** What is wrong across the backup store's variables, by variable. */
export function backupStoreIssues(env: BackupStoreEnv): { path: string[]; message: string }[] {
  if (!env.CANOPY_BACKUP_S3_BUCKET)
    // A half-configured store would quietly keep backups on this machine, which is what the operator meant to avoid.
    return S3_ONLY.filter((k) => env[k] !== undefined).map((k) => ({
      path: [k],
      message: 'needs CANOPY_BACKUP_S3_BUCKET (unset, backups stay in the data directory)',
    }));
  const issues: { path: string[]; message: string }[] = [];
  // Credentials are the standard variables only: the SDK's other sources (profiles, instance roles) would make
  // a store that works on one machine and not the next, found out at the first backup instead of at start.
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const)
    if (!env[k]) issues.push({ path: [k], message: 'is required when CANOPY_BACKUP_S3_BUCKET is set' });
  if (!env.CANOPY_BACKUP_S3_ENDPOINT && !env.CANOPY_BACKUP_S3_REGION)
    issues.push({
      path: ['CANOPY_BACKUP_S3_REGION'],
      message: 'is required for AWS S3 (or set CANOPY_BACKUP_S3_ENDPOINT for another S3-compatible store)',
    });
  return issues;
}

/** The backup store's configuration from the checked variables. */
export function backupStoreOf(env: BackupStoreEnv): BackupStoreConfig {
  if (!env.CANOPY_BACKUP_S3_BUCKET) return { kind: 'directory' };
  const prefix = (env.CANOPY_BACKUP_S3_PREFIX ?? '').replace(/^\/+/, '');
  return {
    kind: 's3',
    bucket: env.CANOPY_BACKUP_S3_BUCKET,
    endpoint: env.CANOPY_BACKUP_S3_ENDPOINT?.replace(/\/+$/, ''),
    // Most S3-compatible stores ignore the region but the signature names one.
    region: env.CANOPY_BACKUP_S3_REGION ?? 'us-east-1',
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    forcePathStyle: env.CANOPY_BACKUP_S3_PATH_STYLE === 'true',
    credentials: {
      accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    },
  };
}
