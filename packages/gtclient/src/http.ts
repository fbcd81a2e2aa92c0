// The client's two HTTPS calls: server_data.php (where to connect) and the login page's token call.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CLIENT_PLATFORM, CLIENT_PROTOCOL, CLIENT_VERSION } from './protocol/real-client.ts';

export interface HttpOptions {
  /** Accept a self-signed certificate (the gateway's default). */
  insecure?: boolean;
  timeoutMs?: number;
}

/** The game client's User-Agent shape; the gateway may look for `UbiServices_SDK`. */
export const USER_AGENT = 'UbiServices_SDK_2022.Release.9_PC64_ansi_static';

interface HttpAnswer {
  status: number;
  body: string;
}

/** POSTs form fields and reads the whole answer (bounded to 1 MiB). */
export function postForm(url: string, fields: Record<string, string>, opts: HttpOptions = {}): Promise<HttpAnswer> {
  const target = new URL(url);
  const body = new URLSearchParams(fields).toString();
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'user-agent': USER_AGENT,
          accept: '*/*',
        },
        rejectUnauthorized: !opts.insecure,
        timeout: opts.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 1024 * 1024) req.destroy(new Error('answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

export interface ServerData {
  server: string;
  port: number;
  type2: boolean;
  maintenance: string | null;
  loginUrl: string | null;
  meta: string;
  /** Every key|value line before the end marker. */
  fields: Map<string, string>;
}

/** Parses a server_data.php body: key|value lines up to RTENDMARKERBS1001; `#maint` is a disabled maintenance line. */
export function parseServerData(body: string): ServerData {
  const fields = new Map<string, string>();
  let ended = false;
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === 'RTENDMARKERBS1001') {
      ended = true;
      break;
    }
    const bar = line.indexOf('|');
    if (bar > 0) fields.set(line.slice(0, bar), line.slice(bar + 1));
  }
  if (!ended) throw new Error('server_data.php: no RTENDMARKERBS1001 end marker');
  const server = fields.get('server');
  const port = Number(fields.get('port'));
  if (!server || !Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error('server_data.php: missing or bad server|port');
  }
  return {
    server,
    port,
    type2: fields.get('type2') === '1',
    maintenance: fields.has('maint') ? (fields.get('maint') ?? '') : null,
    loginUrl: fields.get('loginurl') ?? null,
    meta: fields.get('meta') ?? '',
    fields,
  };
}

/** The form the real client 5.51 posts to server_data.php, in its order (domain notes, step 1). */
export function serverDataForm(): Record<string, string> {
  return { platform: CLIENT_PLATFORM, protocol: String(CLIENT_PROTOCOL), version: CLIENT_VERSION };
}

/** Asks server_data.php where to connect, with the form fields a client sends. */
export async function fetchServerData(url: string, opts: HttpOptions = {}): Promise<ServerData> {
  const target = new URL(url);
  if (target.pathname === '/' || target.pathname === '') target.pathname = '/growtopia/server_data.php';
  const answer = await postForm(target.toString(), serverDataForm(), opts);
  if (answer.status !== 200) throw new Error(`server_data.php answered ${answer.status}`);
  return parseServerData(answer.body);
}
