import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import type { Config } from '../config.ts';
import { ensurePrivateDir, PRIVATE_FILE, writePrivateFileAtomic } from '../private-files.ts';

const GATEWAY_KEY_BYTES = 32;

/**
 * The gateway's token key (32 bytes), generated once into `<data-dir>/gateway-key` (0600) like the session
 * key, so that tokens issued before an api restart still pass the front.
 */
export function loadGatewayKey(dataDir: string): Buffer {
  const file = join(dataDir, 'gateway-key');
  let stored: string | undefined;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch {}
  if (stored !== undefined) {
    const key = Buffer.from(stored, 'base64url');
    // A cut-off write would leave a short, guessable key: refuse rather than use it.
    if (key.length !== GATEWAY_KEY_BYTES) throw new Error(`${file} is not a ${GATEWAY_KEY_BYTES}-byte key; delete it`);
    return key;
  }
  ensurePrivateDir(dataDir);
  const key = randomBytes(GATEWAY_KEY_BYTES);
  writeFileSync(file, key.toString('base64url'), { mode: PRIVATE_FILE, flag: 'wx' });
  return key;
}

/** A PEM certificate and its key. */
export interface TlsPair {
  cert: string;
  key: string;
}

/**
 * The HTTPS pair: the configured PEM files, else a self-signed pair generated once into
 * `<data-dir>/gateway-tls/` (0600) for the game's two hostnames, so the certificate a player's device was told
 * to trust stays the same across restarts.
 */
export async function loadTlsPair(config: Config): Promise<TlsPair> {
  const configured = config.gateway.tls;
  if (configured)
    return { cert: readFileSync(configured.certFile, 'utf8'), key: readFileSync(configured.keyFile, 'utf8') };
  const dir = join(config.dataDir, 'gateway-tls');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  try {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  } catch {}
  ensurePrivateDir(dir);
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'www.growtopia1.com' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 10 * 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'www.growtopia1.com' },
          { type: 2, value: 'www.growtopia2.com' },
          { type: 2, value: 'growtopia1.com' },
          { type: 2, value: 'growtopia2.com' },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: config.publicIp.match(/^[\d.]+$/) ? config.publicIp : '127.0.0.1' },
        ],
      },
    ],
  });
  // Key first and each file whole (rename): a crash in between leaves no cert without its key.
  for (const [file, text] of [
    [keyFile, pems.private],
    [certFile, pems.cert],
  ] as const)
    writePrivateFileAtomic(file, text);
  return { cert: pems.cert, key: pems.private };
}
