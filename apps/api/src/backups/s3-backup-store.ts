import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { backupMessages as b } from '@canopy/contract';
import type { S3BackupConfig } from '../config/backup-store.ts';
import { AppError } from '../errors.ts';
import type { BackupRef, BackupStore, StoredBackup } from './backup-store.ts';

/** The store could not be reached or refused a transfer: nothing changed, try again later. */
export const storeUnavailable = (cause: unknown) =>
  Object.assign(new AppError(503, 'backup_store_unavailable', b.storeUnavailable), { cause });

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');

/**
 * Backups in an S3-compatible bucket (ADR 0037), one object per backup at `<prefix>backups/<owner id>/<sha256>.db`.
 * The content's hash in the key means a new upload never writes over a stored backup (a failed or cut one leaves
 * it exactly as it was; S3 makes an object visible only once all of its Content-Length arrived), and two
 * replicas racing for one account each write their own object: the row names the one that won, reconcile
 * removes the other.
 */
export class S3BackupStore implements BackupStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly root: string;

  constructor(config: S3BackupConfig) {
    this.bucket = config.bucket;
    this.root = `${config.prefix}backups/`;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // The SDK's default CRC32 trailers (aws-chunked bodies) are refused by several S3-compatible stores;
      // the upload's completeness is checked by its Content-Length and a HEAD, its content by the restore.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    });
  }

  /** The object key of a backup. */
  keyOf(ref: BackupRef): string {
    return `${this.root}${ref.owner_id}/${ref.sha256}.db`;
  }

  async put(ref: BackupRef, file: string, bytes: number): Promise<void> {
    const Key = this.keyOf(ref);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: createReadStream(file),
          ContentLength: bytes,
          ContentType: 'application/vnd.sqlite3',
          Metadata: { sha256: ref.sha256 },
        }),
      );
      // A store that accepted fewer bytes than were sent would otherwise go unnoticed until a restore.
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      if (head.ContentLength !== bytes) throw new Error(`stored ${head.ContentLength} bytes of ${bytes}`);
    } catch (error) {
      throw storeUnavailable(error);
    }
  }

  async localCopy(ref: BackupRef, scratch: string): Promise<string | null> {
    let expected: number | undefined;
    let written = 0;
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(ref) }));
      expected = got.ContentLength;
      const body = got.Body as Readable;
      body.on('data', (chunk: Buffer) => {
        written += chunk.length;
      });
      await pipeline(body, createWriteStream(scratch, { mode: 0o600 }));
    } catch (error) {
      if (notFound(error)) return null;
      throw storeUnavailable(error);
    }
    // A download cut short is the store's failure, not a damaged backup.
    if (expected !== undefined && written !== expected)
      throw storeUnavailable(new Error(`downloaded ${written} bytes of ${expected}`));
    return scratch;
  }

  async delete(ref: BackupRef): Promise<void> {
    await this.deleteKey(this.keyOf(ref));
  }

  /** Removes one object by key (reconcile's leftovers). */
  async deleteKey(Key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (error) {
      if (!notFound(error)) throw storeUnavailable(error);
    }
  }

  async stat(ref: BackupRef): Promise<{ bytes: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(ref) }));
      return { bytes: head.ContentLength ?? 0 };
    } catch (error) {
      if (notFound(error)) return null;
      throw storeUnavailable(error);
    }
  }

  async list(): Promise<StoredBackup[]> {
    const found: StoredBackup[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.root, ContinuationToken }),
      );
      for (const o of page.Contents ?? []) {
        const m = /^([^/]+)\/([0-9a-f]{64})\.db$/.exec((o.Key ?? '').slice(this.root.length));
        if (m?.[1] && m[2])
          found.push({ ownerId: m[1], sha256: m[2], bytes: o.Size ?? 0, modifiedAt: o.LastModified?.getTime() ?? 0 });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found;
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
