import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';

// The panel's own HTTPS (CANOPY_TLS_CERT/KEY, ADR 0028): what config.ts reads for it, the checks across those
// variables, and the start-time read of the files. Browsers keep `crypto.subtle` and the session's tokens
// private only on HTTPS (or on localhost), so a panel reached over the network should listen with HTTPS.

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The environment variables of the panel's certificate, spread into config.ts's schema. */
export const panelTlsEnv = {
  CANOPY_TLS_CERT: z.preprocess(emptyAsUndefined, z.string().optional()),
  CANOPY_TLS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
};

/** PEM files the panel listens with (HTTPS instead of HTTP). */
export interface PanelTlsConfig {
  certFile: string;
  keyFile: string;
}

/** The parsed variables the checks read. */
interface PanelTlsEnv {
  NODE_ENV: string;
  CANOPY_TLS_CERT?: string | undefined;
  CANOPY_TLS_KEY?: string | undefined;
  DISCORD_CLIENT_ID?: string | undefined;
  DISCORD_API_URL?: string | undefined;
}

/** What is wrong across the panel certificate's variables, by variable. */
export function panelTlsIssues(env: PanelTlsEnv): { path: string[]; message: string }[] {
  if (!env.CANOPY_TLS_CERT !== !env.CANOPY_TLS_KEY)
    return [
      {
        path: [env.CANOPY_TLS_CERT ? 'CANOPY_TLS_KEY' : 'CANOPY_TLS_CERT'],
        message: 'CANOPY_TLS_CERT and CANOPY_TLS_KEY are set together or not at all',
      },
    ];
  // The development stand-in checks its own tokens by calling this panel over plain HTTP on 127.0.0.1
  // (app.ts, discordApiUrl); with HTTPS on that port the call could not succeed and every sign-in would fail.
  if (env.CANOPY_TLS_CERT && !env.DISCORD_CLIENT_ID && env.NODE_ENV !== 'production' && !env.DISCORD_API_URL)
    return [
      {
        path: ['CANOPY_TLS_CERT'],
        message: 'needs DISCORD_CLIENT_ID: development sign-in works over plain HTTP only',
      },
    ];
  return [];
}

/** The panel's certificate files, resolved; undefined: the panel listens with plain HTTP. */
export function panelTlsOf(env: Pick<PanelTlsEnv, 'CANOPY_TLS_CERT' | 'CANOPY_TLS_KEY'>): PanelTlsConfig | undefined {
  return env.CANOPY_TLS_CERT && env.CANOPY_TLS_KEY
    ? { certFile: resolve(env.CANOPY_TLS_CERT), keyFile: resolve(env.CANOPY_TLS_KEY) }
    : undefined;
}

/** Reads the panel's PEM pair at start; throws a message naming the variable whose file is wrong. */
export function readPanelTls(tls: PanelTlsConfig): { cert: string; key: string } {
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(`${name}: cannot read ${file}: ${(error as Error).message}`);
    }
  };
  const pair = { cert: read('CANOPY_TLS_CERT', tls.certFile), key: read('CANOPY_TLS_KEY', tls.keyFile) };
  try {
    // Parses both and checks that the key belongs to the certificate, as listening would, but with a clear message.
    createSecureContext(pair);
  } catch (error) {
    throw new Error(
      `CANOPY_TLS_CERT and CANOPY_TLS_KEY are not a PEM certificate and its private key: ${(error as Error).message}`,
    );
  }
  return pair;
}
