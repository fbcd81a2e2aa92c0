// The login page on its own host (ADR 0027) as a player's client reaches it: a DNS name that resolves to the
// gateway, verified against the operator's certificate, named by server_data.php's `loginurl`.

import type { LookupAddress } from 'node:dns';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/** A name no resolver knows: only `resolveTo127` makes it reach the gateway. */
export const LOGIN_NAME = 'login.canopy.test';

/** A certificate for LOGIN_NAME written as PEM files, standing in for the one an operator gives. */
export async function loginCertificate(): Promise<{ dir: string; cert: string; certPath: string; keyPath: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-login-host-'));
  const pems = await generate([{ name: 'commonName', value: LOGIN_NAME }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: LOGIN_NAME }] }],
  });
  const certPath = join(dir, 'login.crt');
  const keyPath = join(dir, 'login.key');
  writeFileSync(certPath, pems.cert);
  writeFileSync(keyPath, pems.private);
  return { dir, cert: pems.cert, certPath, keyPath };
}

/** A TCP port free now (the gateway binds it next, so that `loginurl` can name its real port). */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A DNS lookup that answers 127.0.0.1 for every name (what the player's DNS record does for the login host). */
function resolveTo127(
  _host: string,
  options: { all?: boolean },
  callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
): void {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

export interface LoginPageAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * POSTs a form to a login page URL (`https://login.canopy.test:PORT/…`) as the game's web view does: the name
 * resolves to the gateway, SNI is the login host and only `ca` is trusted, so a wrong certificate fails.
 */
export function postLoginPage(url: string, fields: Record<string, string>, ca: string): Promise<LoginPageAnswer> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca,
        lookup: resolveTo127 as never,
        agent: false,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The token of a login page's JSON success (`{status: "success", token}`); throws with the answer otherwise. */
export function tokenOf(answer: LoginPageAnswer): string {
  if (answer.status === 200 && answer.contentType.startsWith('application/json')) {
    const json = JSON.parse(answer.text) as { status?: string; token?: string };
    if (json.status === 'success' && typeof json.token === 'string') return json.token;
  }
  throw new Error(`no token: ${answer.status} ${answer.contentType} ${answer.text.slice(0, 300)}`);
}
