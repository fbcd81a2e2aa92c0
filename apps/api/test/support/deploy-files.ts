import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What the tests of the container image and compose.yaml read from the repository's deployment files (ADR 0047).

/** The repository's root. */
export const REPO_ROOT = new URL('../../../../', import.meta.url).pathname;

/**
 * Copies the repository as a `docker build .` would see it into `dest`: tracked files and new ones not ignored,
 * as they are in the work tree (nothing installed or built: no node_modules, no dist).
 */
export function copyRepository(dest: string) {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    // A tracked file deleted in the work tree is not part of the context either.
    if (existsSync(join(REPO_ROOT, file))) cpSync(join(REPO_ROOT, file), join(dest, file));
  }
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped: [instruction, arguments]. */
function instructions(): [string, string][] {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const lines = text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.map((l) => {
    const [name = '', ...rest] = l.split(/\s+/);
    return [name.toUpperCase(), rest.join(' ')];
  });
}

/** The final image's environment: every `ENV NAME=value` of the Dockerfile's last stage. */
export function dockerfileEnv(): Record<string, string> {
  const all = instructions();
  const lastFrom = all.findLastIndex(([name]) => name === 'FROM');
  const env: Record<string, string> = {};
  for (const [name, args] of all.slice(lastFrom))
    if (name === 'ENV')
      for (const pair of args.split(/\s+/)) {
        const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(pair);
        if (!m?.[1]) throw new Error(`Dockerfile: ENV ${args} is not NAME=value`);
        env[m[1]] = m[2] ?? '';
      }
  return env;
}

/** What the final stage EXPOSEs, as `port/protocol` or `from-to/protocol`. */
export function dockerfileExposed(): string[] {
  return instructions()
    .filter(([name]) => name === 'EXPOSE')
    .flatMap(([, args]) => args.split(/\s+/))
    .map((p) => (p.includes('/') ? p : `${p}/tcp`));
}

/** The base image (the `NODE_IMAGE` build argument's default). */
export function dockerfileBaseImage(): string {
  const arg = instructions().find(([name, args]) => name === 'ARG' && args.startsWith('NODE_IMAGE='));
  if (!arg) throw new Error('Dockerfile: no ARG NODE_IMAGE=');
  return arg[1].slice('NODE_IMAGE='.length);
}

/** The instruction's arguments (the first of its kind in the final stage), e.g. HEALTHCHECK's or CMD's. */
export function dockerfileFinal(instruction: string): string | undefined {
  const all = instructions();
  return all.slice(all.findLastIndex(([name]) => name === 'FROM')).find(([name]) => name === instruction)?.[1];
}

/**
 * Compose's interpolation of one value with `vars` (its .env): `${NAME}`, `${NAME:-default}` (nested),
 * `${NAME:?message}` (throws the message when NAME is unset or empty) and `$$`.
 */
export function interpolate(value: string, vars: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '$') {
      out += value[i];
      continue;
    }
    if (value[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    if (value[i + 1] !== '{') throw new Error(`compose: write $\{NAME} in ${value}`);
    let depth = 0;
    let end = i + 1;
    for (; end < value.length; end++) {
      if (value[end] === '{') depth++;
      if (value[end] === '}' && --depth === 0) break;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([\s\S]*))?$/.exec(value.slice(i + 2, end));
    if (!m?.[1]) throw new Error(`compose: cannot read ${value.slice(i, end + 1)}`);
    const [, name, op, rest = ''] = m;
    const set = vars[name] ? vars[name] : undefined;
    if (set !== undefined) out += set;
    else if (op === ':-') out += interpolate(rest, vars);
    else if (op === ':?') throw new Error(rest);
    i = end;
  }
  return out;
}
