import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sweepUnfinished } from '../src/files/sweep.ts';
import { Logger } from '../src/log.ts';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  startFilesOnlyEngine,
  stopEngine,
  TEST_SECRET,
  tempDataDir,
} from './support/engine-process.ts';
import { fileHash, rawRequest, sha256 } from './support/files-client.ts';
import { until } from './support/until.ts';

/**
 * Starts a PUT whose body is announced as `total` bytes and sends only `sent` of them, so that the engine holds a
 * half-written temporary file until it is killed.
 */
function startPut(engine: RunningEngine, path: string, total: number, sent: Buffer): void {
  const url = new URL(engine.url);
  const req = request({
    host: url.hostname,
    port: url.port,
    method: 'PUT',
    path,
    headers: { authorization: `Bearer ${TEST_SECRET}`, 'content-length': String(total) },
  });
  req.on('error', () => {}); // the engine is killed under it
  req.write(sent);
}

/** The temporary files in a folder that have received at least `bytes`. */
const tempsWith = (dir: string, bytes: number) => {
  const temps = readdirSync(dir).filter((n) => /\.[0-9a-f]{12}\.tmp$/.test(n));
  return temps.length && temps.every((n) => statSync(join(dir, n)).size >= bytes) ? temps : undefined;
};

describe('writes cut short by a kill -9', () => {
  const dataDir = tempDataDir();
  after(() => {
    killAll();
    removeDataDir(dataDir);
  });

  it('leave the old file and database whole; the next start removes their temporary files', async () => {
    const game = await startEngine({ dataDir });
    const old = randomBytes(100_000);
    assert.equal((await rawRequest(game.url, 'PUT', '/files/items.dat', old)).status, 200);
    assert.equal((await rawRequest(game.url, 'PUT', '/files/cache/custom_a.rttex', old)).status, 200);
    await stopEngine(game);
    const database = fileHash(join(dataDir, 'engine.db'));

    const engine = await startFilesOnlyEngine(dataDir);
    const half = randomBytes(4 * 1024 * 1024);
    startPut(engine, '/files/items.dat', 12 * 1024 * 1024, half);
    startPut(engine, '/files/cache/custom_a.rttex', 12 * 1024 * 1024, half);
    startPut(engine, `/restore?sha256=${'0'.repeat(64)}&bytes=${12 * 1024 * 1024}`, 12 * 1024 * 1024, half);
    const temps = await until(() => tempsWith(dataDir, half.length / 2));
    await until(() => tempsWith(join(dataDir, 'cache'), half.length / 2));
    assert.equal(temps.length, 2, `items.dat and the staged restore: ${temps}`);
    engine.child.kill('SIGKILL');
    await engine.exited;

    assert.equal(fileHash(join(dataDir, 'items.dat')), sha256(old));
    assert.equal(fileHash(join(dataDir, 'cache', 'custom_a.rttex')), sha256(old));
    assert.equal(fileHash(join(dataDir, 'engine.db')), database);
    assert.ok(tempsWith(dataDir, 0), 'the kill left the temporary files');

    const next = await startFilesOnlyEngine(dataDir);
    await next.waitForLine(/\[WARN\] Removed 3 temporary file\(s\)/);
    assert.equal(tempsWith(dataDir, 0), undefined);
    assert.equal(tempsWith(join(dataDir, 'cache'), 0), undefined);
    assert.deepEqual(readdirSync(join(dataDir, 'cache')), ['custom_a.rttex']);
    await stopEngine(next);
  });
});

describe('the start-up sweep', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) removeDataDir(d);
  });
  const layout = (files: Record<string, string>) => {
    const dir = tempDataDir();
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
  const sweep = (dir: string) => {
    const lines: string[] = [];
    sweepUnfinished(dir, new Logger({ sink: (l) => lines.push(l) }));
    return lines;
  };
  const listing = (dir: string, sub = '.') => readdirSync(join(dir, sub)).sort();

  it('puts a set-aside WAL back when the restore never swapped (its staged copy is still there)', () => {
    const dir = layout({
      'engine.db': 'old',
      'engine.db-wal.before-restore': 'old wal',
      'engine.db.0123456789ab.tmp': 'staged',
    });
    assert.match(sweep(dir).join(''), /\[WARN\] A restore was cut short before it replaced the database/);
    assert.deepEqual(listing(dir), ['engine.db', 'engine.db-wal']);
    assert.equal(readFileSync(join(dir, 'engine.db-wal'), 'utf8'), 'old wal');
  });

  it('settles a restore the api cut short when it still restored by path (engine.db.restore-<uuid>)', () => {
    const dir = layout({
      'engine.db': 'old',
      'engine.db-wal.before-restore': 'old wal',
      'engine.db.restore-0b4f5c1e-8d1a-4c4e-9a57-2f1f6b0c9d3e': 'staged',
    });
    sweep(dir);
    assert.deepEqual(listing(dir), ['engine.db', 'engine.db-wal']);
  });

  it('drops a set-aside WAL once the restore has swapped', () => {
    const dir = layout({ 'engine.db': 'restored', 'engine.db-wal.before-restore': 'old wal' });
    assert.match(sweep(dir).join(''), /cut short after it replaced/);
    assert.deepEqual(listing(dir), ['engine.db']);
  });

  it('removes unfinished writes and snapshot copies everywhere they are made, and nothing else', () => {
    const dir = layout({
      'creators.json': '[]',
      'creators.json.0123456789ab.tmp': 'x',
      'engine.db.snapshot-0123456789ab.partial-42-1700000000000': 'x',
      'engine.db.snapshot-0123456789ab': 'x',
      'cache/custom_0123456789abcdef.rttex': 'keep',
      'cache/custom_0123456789abcdef.rttex.abcdefabcdef.tmp': 'x',
      [`items-cache/${'a'.repeat(64)}.dat`]: 'keep',
      [`items-cache/${'a'.repeat(64)}.dat.abcdefabcdef.tmp`]: 'x',
      'notes.tmp': 'keep: not an unfinished write',
    });
    assert.match(sweep(dir).join(''), /Removed 5 temporary file/);
    assert.deepEqual(listing(dir), ['cache', 'creators.json', 'items-cache', 'notes.tmp']);
    assert.deepEqual(listing(dir, 'cache'), ['custom_0123456789abcdef.rttex']);
    assert.deepEqual(listing(dir, 'items-cache'), [`${'a'.repeat(64)}.dat`]);
    assert.deepEqual(sweep(dir), [], 'a clean directory: nothing said');
  });
});
