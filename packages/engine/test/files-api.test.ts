import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { type RunningEngine, startEngine, TEST_SECRET, tearDown, tempDataDir } from './support/engine-process.ts';
import { buildWorld } from './support/factories.ts';
import { fileHash, rawRequest, sha256 } from './support/files-client.ts';
import { until } from './support/until.ts';

// The file API of a running engine (docs/engine-files-api.md); files-only mode is in files-only.test.ts.
describe('file API of a running engine', () => {
  let engine: RunningEngine;
  const scratch = tempDataDir();
  const call = (method: string, path: string, body?: Uint8Array, headers?: Record<string, string>) =>
    rawRequest(engine.url, method, path, body, headers);
  before(async () => {
    engine = await startEngine();
  });
  after(() => tearDown(engine, scratch));

  it('gives back exactly the bytes written, for every kind of file', async () => {
    const cases: [string, Buffer][] = [
      ['creators.json', Buffer.from('["Grower"]\n')],
      ['server-config.json', Buffer.from('{"autofarmDelay":500}')],
      ['items.dat', randomBytes(300_000)],
      ['cache/custom_0123456789abcdef.rttex', randomBytes(1_000_000)],
      ['cache/empty.rttex', Buffer.alloc(0)],
    ];
    for (const [name, bytes] of cases) {
      const put = await call('PUT', `/files/${name}`, bytes);
      assert.equal(put.status, 200, put.body.toString());
      assert.deepEqual(put.json(), { bytes: bytes.length });
      const got = await call('GET', `/files/${name}`);
      assert.equal(got.status, 200);
      assert.equal(got.headers['content-type'], 'application/octet-stream');
      assert.equal(sha256(got.body), sha256(bytes), name);
      assert.equal(fileHash(join(engine.dataDir, name)), sha256(bytes), `${name} on disk`);
    }
    // Written again: replaced whole, no temporary file left beside it.
    const again = Buffer.from('["Other"]\n');
    assert.equal((await call('PUT', '/files/creators.json', again)).status, 200);
    assert.equal(readFileSync(join(engine.dataDir, 'creators.json'), 'utf8'), '["Other"]\n');
    assert.deepEqual(
      readdirSync(engine.dataDir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  it('lists the textures, deletes files and says when there was none', async () => {
    await call('PUT', '/files/cache/b.rttex', Buffer.from('b'));
    await call('PUT', '/files/cache/a.rttex', Buffer.from('a'));
    const list = (await call('GET', '/files/cache')).json().names as string[];
    assert.deepEqual(
      list.filter((n) => n === 'a.rttex' || n === 'b.rttex'),
      ['a.rttex', 'b.rttex'],
    );
    assert.deepEqual((await call('DELETE', '/files/cache/a.rttex')).json(), { deleted: true });
    assert.deepEqual((await call('DELETE', '/files/cache/a.rttex')).json(), { deleted: false });
    assert.equal(existsSync(join(engine.dataDir, 'cache', 'a.rttex')), false);
    const missing = await call('GET', '/files/cache/a.rttex');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().code, 'not_found');
    assert.deepEqual((await call('DELETE', '/files/newbie-kit.json')).json(), { deleted: true });
    assert.equal((await call('GET', '/files/newbie-kit.json')).json().code, 'not_found');
  });

  it('refuses every name outside the file API with a 400, and touches nothing', async () => {
    writeFileSync(join(scratch, 'secret.txt'), 'outside');
    const before = readdirSync(engine.dataDir).sort();
    const refused = [
      '/files/..',
      '/files/%2e%2e',
      '/files/cache/..',
      '/files/cache/%2E%2E',
      '/files/cache/.hidden',
      '/files/cache/..%2Fengine.db',
      '/files/cache/a%2Fb.rttex',
      '/files/%2Fetc%2Fpasswd',
      `/files/${encodeURIComponent(join(scratch, 'secret.txt'))}`,
      '/files/cache/%2E%2E%2F..%2Fsecret.txt',
      '/files/engine.db',
      '/files/engine.json',
      '/files/effective-items.dat',
      '/files/.creators.json',
      '/files/cache/x.0123456789ab.tmp',
      `/files/cache/${'a'.repeat(101)}`,
      '/files/cache/bad%00name',
      '/files/cache/%ZZ',
    ];
    for (const path of refused)
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await call(method, path, method === 'PUT' ? Buffer.from('x') : undefined);
        assert.equal(res.status, 400, `${method} ${path}: ${res.status} ${res.body}`);
      }
    assert.deepEqual(readdirSync(engine.dataDir).sort(), before);
    assert.equal(readFileSync(join(scratch, 'secret.txt'), 'utf8'), 'outside');
    // Refused before its body is read, a large file still gets its answer (not a socket closed under the client).
    for (const mb of [8, 15, 8, 15]) {
      const res = await fetch(`${engine.url}/files/engine.db`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TEST_SECRET}` },
        body: randomBytes(mb * 1024 * 1024),
      });
      assert.equal(res.status, 400);
    }
  });

  it('answers a caller without the secret 401 without reading the body it announces', async () => {
    const socket = connect(Number(new URL(engine.url).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    // 8 MB announced, 10 bytes sent: a server that read the body before answering would wait for the rest.
    socket.write('PUT /files/creators.json HTTP/1.1\r\nhost: control\r\ncontent-length: 8388608\r\n\r\n0123456789');
    const answer = await new Promise<string>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error('no answer: the server waits for the body')), 10_000);
      socket.once('data', (data) => {
        clearTimeout(guard);
        resolve(String(data));
      });
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /connection: close/i);
  });

  it('refuses a body over 16 MB (413) and keeps the old file', async () => {
    const old = Buffer.from('["Keep"]\n');
    await call('PUT', '/files/creators.json', old);
    const big = await call('PUT', '/files/creators.json', Buffer.alloc(16 * 1024 * 1024 + 1));
    assert.equal(big.status, 413);
    assert.equal(fileHash(join(engine.dataDir, 'creators.json')), sha256(old));
  });

  it('keeps the old file when the client goes away mid-body, and leaves no temporary file', async () => {
    const old = Buffer.from('["Kept"]\n');
    await call('PUT', '/files/creators.json', old);
    const socket = connect(Number(new URL(engine.url).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `PUT /files/creators.json HTTP/1.1\r\nhost: control\r\nauthorization: Bearer ${TEST_SECRET}\r\n` +
        'content-length: 100000\r\n\r\n["Cut',
    );
    await until(() => readdirSync(engine.dataDir).some((n) => n.startsWith('creators.json.')));
    socket.destroy();
    await until(() => !readdirSync(engine.dataDir).some((n) => n.startsWith('creators.json.')));
    assert.equal(fileHash(join(engine.dataDir, 'creators.json')), sha256(old));
    assert.ok(!engine.lines.some((l) => /\[ERROR\]/.test(l)), 'a client gone is not an engine failure');
  });

  it('measures what the server stores, the database with its WAL', async () => {
    const usage = (await call('GET', '/usage')).json();
    const size = (name: string) =>
      existsSync(join(engine.dataDir, name)) ? readFileSync(join(engine.dataDir, name)).length : 0;
    assert.ok(usage.databaseBytes > 0);
    assert.ok(usage.databaseBytes <= size('engine.db') + size('engine.db-wal') + 65536, JSON.stringify(usage));
    assert.ok(usage.bytes >= usage.databaseBytes + 1_000_000, 'the texture counts');
  });

  it('answers a snapshot taken while worlds are written: a sound, self-contained database with its sha256', async () => {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const res = await engine.request('PUT', `/worlds/SNAP${n % 20}`, buildWorld({ w_s: n }, 60, 40));
        if (res.status === 200 || res.status === 201) written++;
      }
    })();
    // Worlds are being written before and after the copy starts.
    while (written < 5) await new Promise((r) => setTimeout(r, 10));
    const snap = await call('GET', '/snapshot');
    const during = written;
    writing = false;
    await writer;
    assert.equal(snap.status, 200);
    assert.equal(Number(snap.headers['content-length']), snap.body.length);
    assert.equal(snap.headers['x-canopy-sha256'], sha256(snap.body));
    assert.ok(during > 5, 'worlds were written while the snapshot was taken');
    const file = join(scratch, 'snapshot.db');
    writeFileSync(file, snap.body);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
      assert.equal(db.prepare('PRAGMA journal_mode').get()?.journal_mode, 'delete');
      const worlds = Number(db.prepare("SELECT count(*) AS n FROM worlds WHERE name LIKE 'SNAP%'").get()?.n);
      assert.ok(worlds >= 5, `${worlds} worlds in the copy`);
    } finally {
      db.close();
    }
    assert.deepEqual(
      readdirSync(engine.dataDir).filter((n) => n.includes('snapshot')),
      [],
      'no copy is left in the data directory',
    );
  });

  it('refuses a restore while the game runs (409 engine_running), the database untouched', async () => {
    const worldsBefore = (await engine.request('GET', '/worlds')).body;
    const bytes = readFileSync(join(scratch, 'snapshot.db'));
    const res = await call('PUT', `/restore?sha256=${sha256(bytes)}&bytes=${bytes.length}`, bytes);
    assert.equal(res.status, 409);
    assert.equal(res.json().code, 'engine_running');
    assert.deepEqual((await engine.request('GET', '/worlds')).body, worldsBefore);
    assert.deepEqual(
      readdirSync(engine.dataDir).filter((n) => n.startsWith('engine.db.')),
      [],
    );
  });
});
