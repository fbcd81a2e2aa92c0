import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { TEST_SECRET } from './engine-process.ts';

/** An answer of the control API, its body as bytes. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
  json(): any;
}

/**
 * One control API request through node:http, which sends the path exactly as given (fetch would resolve `..` and
 * `%2e%2e` before sending, and so never test the engine's own refusal of them).
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  body?: Uint8Array,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${TEST_SECRET}`,
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: bytes,
            json: () => JSON.parse(bytes.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** sha256 of a file, or 'missing'. */
export function fileHash(path: string): string {
  try {
    return sha256(readFileSync(path));
  } catch {
    return 'missing';
  }
}

/** The UDP sockets a process holds (Linux: its socket fds matched against /proc/net/udp and udp6). */
export function udpSocketsOf(pid: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1]) inodes.add(m[1]);
    } catch {}
  }
  let count = 0;
  for (const table of ['/proc/net/udp', '/proc/net/udp6'])
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const inode = line.trim().split(/\s+/)[9];
      if (inode && inodes.has(inode)) count++;
    }
  return count;
}
