import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key that signs session tokens: from CANOPY_SESSION_SECRET, or generated once and kept in the
 * data directory so that sessions survive a restart of a single-machine install.
 */
export function loadSessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, 'session-secret');
  let stored: string | null = null;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch {
    stored = null;
  }
  if (stored !== null) {
    // A short key (a write cut off by a crash or a full disk) would make tokens forgeable: refuse to start.
    if (stored.length < 32)
      throw new Error(`${file} holds a key shorter than 32 characters; delete it to make a new one`);
    return stored;
  }
  {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}
