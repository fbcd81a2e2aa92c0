import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an S3-compatible object store (path-style, one bucket), speaking the REST subset that
 * S3BackupStore calls: PutObject, GetObject, HeadObject, DeleteObject and ListObjectsV2. Every request must carry
 * an AWS Signature Version 4 Authorization header for the configured key, and the signature is checked (a
 * request signed with another secret, or unsigned, is a 403). Tests can make the next transfers fail or cut an
 * upload mid-way, and damage a stored object.
 */
export interface StoredObject {
  body: Buffer;
  modified: Date;
  metadata: Record<string, string>;
}

/** How the stand-in misbehaves on an operation: answer 500, or (PUT) drop the connection half-way through. */
export type Fault = 'error' | 'cut';

export class S3StandIn {
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region = 'us-east-1';
  readonly objects = new Map<string, StoredObject>();
  /** Every request as `METHOD key-or-?query`, with its verdict on the signature. */
  readonly log: { method: string; path: string; signed: boolean }[] = [];
  /** Operations that fail until cleared (`faults.delete('PUT')`). */
  readonly faults = new Map<'PUT' | 'GET' | 'HEAD' | 'DELETE' | 'LIST', Fault>();
  private server?: Server;
  url = '';

  constructor(opts: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {}) {
    this.bucket = opts.bucket ?? 'canopy-backups';
    this.accessKeyId = opts.accessKeyId ?? 'CANOPYTESTKEY';
    this.secretAccessKey = opts.secretAccessKey ?? 'canopy-test-secret-0123456789';
  }

  /** Listens on a free loopback port. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        if (!res.headersSent) xml(res, 500, 'InternalError', error.message);
        else res.destroy();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The environment that points an api at this store. */
  env(prefix = ''): Record<string, string> {
    return {
      CANOPY_BACKUP_S3_BUCKET: this.bucket,
      CANOPY_BACKUP_S3_ENDPOINT: this.url,
      CANOPY_BACKUP_S3_REGION: this.region,
      CANOPY_BACKUP_S3_PATH_STYLE: 'true',
      ...(prefix ? { CANOPY_BACKUP_S3_PREFIX: prefix } : {}),
      AWS_ACCESS_KEY_ID: this.accessKeyId,
      AWS_SECRET_ACCESS_KEY: this.secretAccessKey,
    };
  }

  /** Keys stored under `prefix`. */
  keys(prefix = ''): string[] {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = rest.map((s) => decodeURIComponent(s)).join('/');
    const method = req.method ?? 'GET';
    // A PUT's body is read before the signature is checked: its hash is part of what was signed.
    const fault = this.faults.get(method === 'GET' && !key ? 'LIST' : (method as 'PUT'));
    let body = Buffer.alloc(0);
    if (method === 'PUT') {
      const length = Number(req.headers['content-length'] ?? -1);
      if (fault === 'cut') {
        // Half of the upload arrives, then the connection is gone: S3 stores nothing.
        let seen = 0;
        for await (const chunk of req) {
          seen += (chunk as Buffer).length;
          if (seen >= length / 2) break;
        }
        req.socket.destroy();
        this.log.push({ method, path: key, signed: false });
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
      if (req.headers['content-encoding']?.includes('aws-chunked'))
        return xml(res, 501, 'NotImplemented', 'aws-chunked bodies are not supported by the stand-in');
      if (length !== body.length) return xml(res, 400, 'IncompleteBody', 'fewer bytes than Content-Length');
    }
    const signed = this.verify(req, url, body);
    this.log.push({ method, path: key || url.search, signed: signed === true });
    if (signed !== true) return xml(res, 403, 'SignatureDoesNotMatch', signed);
    if (bucket !== this.bucket) return xml(res, 404, 'NoSuchBucket', bucket);
    if (fault === 'error') return xml(res, 500, 'InternalError', 'told to fail');

    if (method === 'GET' && !key) return this.list(url, res);
    const object = this.objects.get(key);
    switch (method) {
      case 'PUT': {
        const metadata: Record<string, string> = {};
        for (const [h, v] of Object.entries(req.headers))
          if (h.startsWith('x-amz-meta-') && typeof v === 'string') metadata[h.slice(11)] = v;
        this.objects.set(key, { body, modified: new Date(), metadata });
        res.writeHead(200, { etag: etag(body) }).end();
        return;
      }
      case 'HEAD':
      case 'GET': {
        if (!object) {
          if (method === 'HEAD') return void res.writeHead(404).end();
          return xml(res, 404, 'NoSuchKey', key);
        }
        const headers: Record<string, string | number> = {
          'content-length': object.body.length,
          'content-type': 'application/octet-stream',
          etag: etag(object.body),
          'last-modified': object.modified.toUTCString(),
        };
        for (const [k, v] of Object.entries(object.metadata)) headers[`x-amz-meta-${k}`] = v;
        res.writeHead(200, headers);
        res.end(method === 'GET' ? object.body : undefined);
        return;
      }
      case 'DELETE':
        this.objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        return xml(res, 405, 'MethodNotAllowed', method);
    }
  }

  private list(url: URL, res: ServerResponse) {
    if (url.searchParams.get('list-type') !== '2') return xml(res, 400, 'InvalidArgument', 'ListObjectsV2 only');
    const prefix = url.searchParams.get('prefix') ?? '';
    const contents = this.keys(prefix)
      .map((k) => {
        const o = this.objects.get(k) as StoredObject;
        return `<Contents><Key>${escapeXml(k)}</Key><LastModified>${o.modified.toISOString()}</LastModified><ETag>${escapeXml(etag(o.body))}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${this.bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${this.keys(prefix).length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
    );
  }

  /** Checks the request's SigV4 signature; true, or why it does not match. */
  private verify(req: IncomingMessage, url: URL, body: Buffer): true | string {
    const auth = req.headers.authorization ?? '';
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m) return 'no AWS SigV4 Authorization header';
    const [, keyId, day, region, signedHeaders, signature] = m as unknown as string[];
    if (keyId !== this.accessKeyId) return `unknown access key ${keyId}`;
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (!payloadHash) return 'no x-amz-content-sha256';
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) return 'the body is not what was signed';
    const names = (signedHeaders ?? '').split(';');
    if (!names.includes('host')) return 'host is not signed';
    const canonicalHeaders = names
      .map((n) => {
        const v = req.headers[n];
        return `${n}:${(Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');
    const query = [...url.searchParams]
      .map(([k, v]) => [rfc3986(k), rfc3986(v)])
      .sort(([a = '', x = ''], [b = '', y = '']) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const canonical = [req.method, url.pathname, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(Buffer.from(canonical))].join('\n');
    let key: Buffer = hmac(`AWS4${this.secretAccessKey}`, day ?? '');
    for (const part of [region ?? '', 's3', 'aws4_request']) key = hmac(key, part);
    return hmac(key, toSign).toString('hex') === signature ? true : 'signature does not match';
  }
}

const sha256Hex = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const etag = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function xml(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`,
  );
}
