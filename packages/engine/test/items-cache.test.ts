import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { engineEnv } from '@canopy/contract';
import { decodeItemsDat, encodeItemsDat } from '@canopy/formats';
import { killAll, removeDataDir, startEngine, stopEngine, TEST_SECRET, tempDataDir } from './support/engine-process.ts';
import { sha256 } from './support/files-client.ts';

const bundled = readFileSync(fileURLToPath(import.meta.resolve('@canopy/formats/assets/items.dat')));
const VERSION = sha256(bundled);

/** The api's GET /api/internal/items-dat/{version}, standing in: it serves `files` and notes each request. */
function itemsServer(files: Map<string, Buffer>) {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const body = files.get((req.url ?? '').replace('/api/internal/items-dat/', ''));
    res.writeHead(body ? 200 : 404).end(body);
  });
  return { server, seen, files };
}

describe('the item database by version', () => {
  const dataDir = tempDataDir();
  const scratch = tempDataDir();
  const api = itemsServer(new Map([[VERSION, bundled]]));
  let base = '';
  before(async () => {
    await new Promise<void>((r) => api.server.listen(0, '127.0.0.1', r));
    const address = api.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/internal/items-dat/`;
  });
  after(async () => {
    killAll();
    api.server.close();
    removeDataDir(dataDir);
    removeDataDir(scratch);
  });

  /** Starts an engine asking for `version`, waits until it has read (or failed to read) its items.dat, stops it. */
  const run = async (version: string, extra: Record<string, string> = {}) => {
    const engine = await startEngine({
      dataDir,
      env: {
        [engineEnv.itemsUrl]: `${base}${version}`,
        [engineEnv.itemsVersion]: version,
        [engineEnv.serverId]: 'srv-42',
        ...extra,
      },
    });
    await engine.waitForLine(/\] (Loaded \d+ items|Could not read|No items\.dat found)/);
    await stopEngine(engine);
    return engine.lines;
  };
  const loadedFrom = (lines: string[]) =>
    /Loaded \d+ items .* from (.+)$/.exec(lines.find((l) => / Loaded \d+ items /.test(l)) ?? '')?.[1];
  const cacheDir = join(dataDir, 'items-cache');

  it('fetches it with the secret and the server id, checks it, keeps it and uses it', async () => {
    const lines = await run(VERSION);
    assert.equal(api.seen.length, 1);
    assert.equal(api.seen[0]?.path, `/api/internal/items-dat/${VERSION}`);
    assert.equal(api.seen[0]?.headers.authorization, `Bearer ${TEST_SECRET}`);
    assert.equal(api.seen[0]?.headers['x-canopy-server'], 'srv-42');
    assert.equal(loadedFrom(lines), `items-cache/${VERSION}.dat`);
    const cached = join(cacheDir, `${VERSION}.dat`);
    assert.equal(sha256(readFileSync(cached)), VERSION);
    assert.equal(statSync(cached).mode & 0o777, 0o600);
  });

  it('uses the cached copy at the next start without fetching', async () => {
    const lines = await run(VERSION);
    assert.equal(api.seen.length, 1, 'no second request');
    assert.equal(loadedFrom(lines), `items-cache/${VERSION}.dat`);
  });

  it('fetches again when the cached copy does not hash to its version', async () => {
    writeFileSync(join(cacheDir, `${VERSION}.dat`), 'tampered');
    const lines = await run(VERSION);
    assert.equal(api.seen.length, 2);
    assert.equal(loadedFrom(lines), `items-cache/${VERSION}.dat`);
    assert.equal(sha256(readFileSync(join(cacheDir, `${VERSION}.dat`))), VERSION);
  });

  it('refuses bytes whose hash is not the version, and falls back (--items-dat, else the bundled one)', async () => {
    const other = 'b'.repeat(64);
    api.files.set(other, bundled); // served under a version it is not
    const lines = await run(other);
    assert.equal(api.seen.at(-1)?.path, `/api/internal/items-dat/${other}`);
    assert.ok(lines.some((l) => /\[WARN\] Could not fetch the item database bbbbbbbbbbbb: its sha256 is/.test(l)));
    assert.equal(loadedFrom(lines), 'items.dat (default)');
    assert.deepEqual(readdirSync(cacheDir), [`${VERSION}.dat`], 'nothing kept of it');

    const operator = join(scratch, 'operator.dat');
    writeFileSync(operator, bundled);
    const missing = 'c'.repeat(64); // the api answers 404
    const flagged = await run(missing, { [engineEnv.itemsDat]: operator });
    assert.ok(
      flagged.some((l) => /\[WARN\] Could not fetch the item database cccccccccccc: the api answered 404/.test(l)),
    );
    assert.equal(loadedFrom(flagged), 'operator.dat');
  });

  it('keeps at most two versions, the one in use among them', async () => {
    const old = ['1', '2', '3'].map((c) => join(cacheDir, `${c.repeat(64)}.dat`));
    old.forEach((file, i) => {
      writeFileSync(file, 'old');
      utimesSync(file, 1_000_000 + i, 1_000_000 + i); // 333… is the newest of them
    });
    utimesSync(join(cacheDir, `${VERSION}.dat`), 900_000, 900_000); // used long ago
    // Another valid item database: the bundled one less its last item.
    const dat = decodeItemsDat(new Uint8Array(bundled));
    const newer = Buffer.from(encodeItemsDat({ ...dat, items: dat.items.slice(0, -1) }));
    api.files.set(sha256(newer), newer);
    const lines = await run(sha256(newer));
    assert.equal(loadedFrom(lines), `items-cache/${sha256(newer)}.dat`);
    assert.deepEqual(readdirSync(cacheDir).sort(), [`${'3'.repeat(64)}.dat`, `${sha256(newer)}.dat`].sort());
  });

  it('leaves the server’s own items.dat first: nothing is fetched', async () => {
    const before = api.seen.length;
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'items.dat'), bundled);
    const lines = await run('d'.repeat(64));
    assert.equal(api.seen.length, before);
    assert.equal(loadedFrom(lines), 'items.dat');
  });
});
