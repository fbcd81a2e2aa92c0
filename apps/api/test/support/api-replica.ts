import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiProcess, spawnApiProcess, startLine } from './api-process.ts';
import type { FakeDiscord } from './fake-discord.ts';
import { call } from './http-call.ts';

// An api process a test stops with signals (graceful shutdown, rolling restarts): started like `npm start`, signed
// into through a FakeDiscord, given requests that stay in flight (slow uploads), and watched over HTTP only.

/** A started api process and its address. */
export interface SpawnedApi {
  url: string;
  dataDir: string;
  proc: ApiProcess;
  /** Resolves with the exit code once the process has exited (at once when it already has). */
  exited: Promise<number | null>;
}

/** Starts `apps/api/src/main.ts` on `dataDir` (a fresh one when omitted) with `env`; rejects when it exits first. */
export async function spawnApi(env: Record<string, string>, dataDir?: string): Promise<SpawnedApi> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'canopy-shutdown-'));
  const proc = spawnApiProcess(dir, env);
  const exited = new Promise<number | null>((resolve) => {
    if (proc.child.exitCode !== null) resolve(proc.child.exitCode);
    else proc.child.once('exit', (code) => resolve(code));
  });
  const started = await startLine(proc, 90_000);
  if (!started.url) throw new Error(`the api exited with ${started.code}:\n${proc.output()}`);
  return { url: started.url.replace('localhost', '127.0.0.1'), dataDir: dir, proc, exited };
}

let users = 0;

/** A new Discord identity signed in (POST /auth/login through `discord`) and registered; its id and token. */
export async function signedInUser(url: string, discord: FakeDiscord, name: string) {
  users += 1;
  const id = String(430000000000000000n + BigInt(process.pid) * 1000n + BigInt(users));
  const username = `${name}${users}`.slice(0, 24);
  discord.grant(`token-${id}`, { id, username, discriminator: '1', avatar: null, email: null });
  const login = await call(url, '', 'POST', '/auth/login', { accessToken: `token-${id}` });
  if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.sessionToken as string;
  const growId = `G${id.slice(-10)}`;
  const registered = await call(url, token, 'POST', '/register', { discordId: id, discordUsername: username, growId });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  return { id, token };
}

/** A request whose body is still arriving: the api holds it in flight until finish() sends the rest. */
export interface SlowUpload {
  /** Sends the rest of the body; resolves with the answer (status 0 when the connection was cut instead). */
  finish(): Promise<{ status: number; body: string }>;
}

/**
 * Sends `method path` with a JSON body that arrives slowly, as a large upload on a slow link does: the headers
 * (with Expect: 100-continue, so that it resolves only once the api has read them and the request is its own),
 * then `json` minus its closing brace, then a space every 200 ms (the socket never idles), until finish().
 */
export async function slowUpload(url: string, token: string, method: string, path: string, json: string) {
  const padding = 8000;
  const head = json.slice(0, json.lastIndexOf('}'));
  const length = Buffer.byteLength(head) + padding + 1;
  const req = httpRequest(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': String(length),
      expect: '100-continue',
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: 0, body }));
    });
    req.on('error', (error) => resolve({ status: 0, body: error.message }));
  });
  await new Promise<void>((resolve, reject) => {
    req.once('continue', resolve);
    req.once('error', reject);
    req.flushHeaders();
  });
  req.write(head);
  let sent = 0;
  const trickle = setInterval(() => {
    if (sent < padding - 1 && !req.destroyed) {
      req.write(' ');
      sent++;
    }
  }, 200);
  // A test that failed before finish() must not be kept alive by the trickle.
  trickle.unref();
  req.once('close', () => clearInterval(trickle));
  return {
    finish() {
      clearInterval(trickle);
      if (!req.destroyed) req.end(`${' '.repeat(padding - sent)}}`);
      return answer;
    },
  } satisfies SlowUpload;
}

/** GET /readyz as a probe sees it: its status and body, or 0 with the error when nothing answered. */
export async function readyz(url: string): Promise<{ status: number; body: unknown }> {
  return call(url, '', 'GET', '/readyz').catch((error: Error) => ({ status: 0, body: String(error.cause ?? error) }));
}
