import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE } from '../private-files.ts';

/**
 * A key kept in the data directory: read, or generated once (0600) so that it survives a restart of
 * a single-machine install.
 */
function loadKeyFile(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  let stored: string | null = null;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch {
    stored = null;
  }
  if (stored !== null) {
    // A short key (a write cut off by a crash or a full disk) would make it guessable: refuse to start.
    if (stored.length < 32)
      throw new Error(`${file} holds a key shorter than 32 characters; delete it to make a new one`);
    return stored;
  }
  ensurePrivateDir(dataDir);
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key, { mode: PRIVATE_FILE, flag: 'wx' });
  return key;
}

/** The key that signs session tokens: from CANOPY_SESSION_SECRET, or `<data-dir>/session-secret`. */
export function loadSessionSecret(configured: string | undefined, dataDir: string): string {
  return configured || loadKeyFile(dataDir, 'session-secret');
}

/**
 * The host key every engine's control secret is derived from (ADR 0011): CANOPY_CONTROL_KEY (replicas that share
 * engines, the kubernetes runtime, must all derive the same secrets), or `<data-dir>/control-key`. It is apart from
 * the session key, so rotating CANOPY_SESSION_SECRET does not orphan running engines.
 */
export function loadControlKey(configured: string | undefined, dataDir: string): string {
  return configured || loadKeyFile(dataDir, 'control-key');
}

/** One engine's control secret: an HMAC of its server id under the host control key; stored nowhere. */
export function deriveControlSecret(controlKey: string, serverId: string): string {
  return createHmac('sha256', controlKey).update(`canopy engine control secret\0${serverId}`).digest('base64url');
}
