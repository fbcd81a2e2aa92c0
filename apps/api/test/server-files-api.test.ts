import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createItem, encodeItemsDat } from '@canopy/formats';
import { backupFile } from '../src/backups/backup-files.ts';
import { backupsRepo } from '../src/backups/backups.repo.ts';
import type { SqlValue } from '../src/db/db.ts';
import { installItemDatabase } from '../src/items/install.ts';
import type { LocalDriver } from '../src/runtime/local/local-driver.ts';
import { pidAlive } from '../src/runtime/local/pids.ts';
import { serversRepo } from '../src/servers/servers.repo.ts';
import { damageUnseenByIntegrityCheck } from './support/damaged-backup.ts';
import { ownerWithServer } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { serverFiles } from './support/server-files.ts';
import { waitForStatus } from './support/servers.ts';
import { until } from './support/until.ts';

// The api reaches a hosted server's files only through its engine (ADR 0041, docs/engine-files-api.md): over HTTP,
// an offline server's configuration goes through a files-only engine, backups stream out of and into the engine,
// and engines fetch the operator's item database from the api by version.

type Owner = Awaited<ReturnType<typeof ownerWithServer>>;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
describeEachDatabase(
  'the api reaches server files only through engines',
  (api) => {
    let owner: Owner;
    let name = '';
    let id = '';
    const call = (method: string, path: string, body?: unknown) =>
      api().request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body });
    const driver = () => api().ctx.servers.runtime as LocalDriver;
    const filesOnlyPid = () => driver().filesOnlyPid(id);
    const bpm = async () => (await call('GET', '/worlds/START')).body.music_bpm;
    const setBpm = async (value: number) => {
      const world = (await call('GET', '/worlds/START')).body;
      assert.equal((await call('PUT', '/worlds/START', { ...world, music_bpm: value })).status, 200);
    };
    const power = async (action: 'start' | 'stop') => {
      assert.equal((await call('POST', `/${name}/${action}`)).status, 202);
      await waitForStatus(api(), name, action === 'start' ? 'ONLINE' : 'OFFLINE');
    };

    before(async () => {
      name = `files${api().dialect[0]}${process.pid % 1000}`;
      owner = await ownerWithServer(api(), name);
      id = (await serversRepo.findByOwner(api().ctx.db, owner.user.id))?.id ?? '';
    });

    it('saves and reads an offline server config through a files-only engine, gone after an idle while', async () => {
      assert.equal(filesOnlyPid(), null, 'nothing runs for an offline server at first');
      assert.equal((await call('POST', '/creator-list', { growId: 'Filer1' })).status, 200);
      const pid = filesOnlyPid();
      assert.ok(pid, 'the save started a files-only engine');
      assert.deepEqual((await call('GET', '/creator-list')).body, { creatorList: ['Filer1'] });
      assert.equal(filesOnlyPid(), pid, 'the read went to the same one');
      assert.equal(api().ctx.servers.runtime.state(id).status, 'OFFLINE', 'the server stays offline');
      await until(() => filesOnlyPid() === null && !pidAlive(pid), 'the idle files-only engine to stop');
      // Read again: another one answers, with what was saved.
      assert.deepEqual((await call('GET', '/creator-list')).body, { creatorList: ['Filer1'] });
      assert.ok(filesOnlyPid());
    });

    it('stops the files-only engine before the server starts, and then serves files from the running engine', async () => {
      assert.equal((await call('POST', '/farm-delay', { amount: 777 })).status, 200);
      const pid = filesOnlyPid();
      assert.ok(pid);
      await power('start');
      assert.equal(pidAlive(pid), false, 'the files-only engine was stopped before the start');
      assert.equal(filesOnlyPid(), null);
      const state = JSON.parse(readFileSync(join(api().ctx.config.dataDir, 'servers', id, 'engine.json'), 'utf8'));
      assert.notEqual(state.filesOnly, true, 'the game engine runs');
      assert.deepEqual((await call('GET', '/creator-list')).body, { creatorList: ['Filer1'] });
      assert.equal(filesOnlyPid(), null, 'an online server answers through its own engine');
    });

    it('creates backups online and offline and restores them, byte for byte', async () => {
      await setBpm(101);
      assert.equal((await call('POST', '/backup')).status, 200, 'online: the running engine streams its snapshot');
      const online = await backupsRepo.find(api().ctx.db, owner.user.id);
      assert.ok(online);
      const stored = readFileSync(backupFile(api().ctx.config.dataDir, owner.user.id));
      assert.equal(stored.length, Number(online.bytes));
      assert.equal(sha256(stored), online.sha256, 'the store holds the bytes the row records');

      await setBpm(102);
      await power('stop');
      const restored = await call('POST', '/backup/restore');
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      // The files-only engine swapped in exactly the backup's bytes (read where the local driver keeps them).
      const live = readFileSync(join(api().ctx.config.dataDir, 'servers', id, 'engine.db'));
      assert.equal(sha256(live), online.sha256);
      assert.equal(
        (await (await serverFiles(api(), id)).usage()).databaseBytes,
        Number(online.bytes),
        'no WAL beside it',
      );

      // Offline: a files-only engine takes the snapshot, which the api checks and stores as it is.
      assert.equal((await call('DELETE', '/backup')).status, 200);
      assert.equal((await call('POST', '/backup')).status, 200);
      const offline = await backupsRepo.find(api().ctx.db, owner.user.id);
      assert.ok(offline);
      assert.equal(sha256(readFileSync(backupFile(api().ctx.config.dataDir, owner.user.id))), offline.sha256);
      assert.equal((await call('POST', '/backup/restore')).status, 200);
      const again = readFileSync(join(api().ctx.config.dataDir, 'servers', id, 'engine.db'));
      assert.equal(sha256(again), offline.sha256);
      await power('start');
      assert.equal(await bpm(), 101);
    });

    it('lets a save or a restore sent before a start finish first, then starts (none is refused half way)', async () => {
      await power('stop'); // the test before left it running
      // A save under way on the offline server (its files-only engine being started for it), then a start.
      await until(() => filesOnlyPid() === null, 'no files-only engine yet');
      const save = call('POST', '/creator-list', { growId: 'Racer1' });
      await until(() => filesOnlyPid() !== null, 'the save to reach the files');
      const start = call('POST', `/${name}/start`);
      const [saved, started] = await Promise.all([save, start]);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(started.status, 202, JSON.stringify(started.body));
      await waitForStatus(api(), name, 'ONLINE');
      assert.ok((await call('GET', '/creator-list')).body.creatorList.includes('Racer1'));
      await power('stop');

      // A restore held just after it began (reading its backup's record), then a start.
      const db = api().ctx.db;
      const get = db.get;
      let arrived = () => {};
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      let open = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      db.get = (async (text: string, params?: readonly SqlValue[]) => {
        if (/FROM backups WHERE owner_id/.test(text) && !/SELECT bytes/.test(text)) {
          db.get = get;
          arrived();
          await gate;
        }
        return get.call(db, text, params);
      }) as typeof db.get;
      try {
        const restore = call('POST', '/backup/restore');
        await reached;
        const startAfter = call('POST', `/${name}/start`);
        await new Promise((r) => setTimeout(r, 50)); // the start is in the api, waiting
        open();
        const [restored, startedAfter] = await Promise.all([restore, startAfter]);
        assert.equal(restored.status, 200, JSON.stringify(restored.body));
        assert.equal(startedAfter.status, 202, JSON.stringify(startedAfter.body));
      } finally {
        db.get = get;
        open();
      }
      await waitForStatus(api(), name, 'ONLINE');
    });

    it('leaves the live database untouched when the engine finds the backup it is sent damaged', async () => {
      await setBpm(103);
      await power('stop');
      const row = await backupsRepo.find(api().ctx.db, owner.user.id);
      assert.ok(row);
      const files = await serverFiles(api(), id);
      const scratch = mkdtempSync(join(tmpdir(), 'canopy-files-api-'));
      try {
        const before = await files.snapshot(join(scratch, 'before.db'));
        // Past the api's own check (it verified the backup): damaged on the way, as the engine sees it.
        const damaged = join(scratch, 'damaged.db');
        writeFileSync(
          damaged,
          damageUnseenByIntegrityCheck(readFileSync(backupFile(api().ctx.config.dataDir, owner.user.id))),
        );
        const spec = api().ctx.servers.spec((await serversRepo.findById(api().ctx.db, id)) ?? assert.fail('no server'));
        await assert.rejects(
          api().ctx.servers.runtime.exclusive(spec, () =>
            files.restore({ sha256: row.sha256, bytes: Number(row.bytes) }, damaged),
          ),
          { status: 422, code: 'backup_damaged' },
        );
        assert.deepEqual(await files.snapshot(join(scratch, 'after.db')), before, 'the live database is as it was');
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      await power('start');
      assert.equal(await bpm(), 103);
      await power('stop');
    });
  },
  { CANOPY_ENGINE_FILES_IDLE_MS: '300' },
);

describeEachDatabase('GET /api/internal/items-dat/{version}: the item database for engines', (api) => {
  let source = '';
  let dat: Buffer;
  let version = '';
  let first: { id: string; secret: string };
  let second: { id: string; secret: string };
  const get = (path: string, headers: Record<string, string>) => fetch(`${api().url}${path}`, { headers });

  before(async () => {
    source = mkdtempSync(join(tmpdir(), 'canopy-items-dat-'));
    dat = Buffer.from(
      encodeItemsDat({ version: 26, items: [0, 1].map((i) => createItem(i, { name: `Op ${i}`, texture: 'o.rttex' })) }),
    );
    writeFileSync(join(source, 'items.dat'), dat);
    mkdirSync(join(source, 'cache'));
    await installItemDatabase(api().ctx.config.itemsDir, join(source, 'items.dat'), join(source, 'cache'));
    version = sha256(dat);
    const specOf = async (serverName: string) => {
      const owner = await ownerWithServer(api(), serverName);
      const row = await serversRepo.findByOwner(api().ctx.db, owner.user.id);
      const spec = api().ctx.servers.spec(row ?? assert.fail('no server'));
      return { id: spec.id, secret: spec.secret };
    };
    first = await specOf(`dat1${api().dialect[0]}${process.pid % 1000}`);
    second = await specOf(`dat2${api().dialect[0]}${process.pid % 1000}`);
  });
  after(() => rmSync(source, { recursive: true, force: true }));

  it("answers the operator's bytes only to the named server's control secret", async () => {
    const path = `/api/internal/items-dat/${version}`;
    const as = (server: string, secret: string) => ({ authorization: `Bearer ${secret}`, 'x-canopy-server': server });
    const ok = await get(path, as(first.id, first.secret));
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'application/octet-stream');
    assert.ok(Buffer.from(await ok.arrayBuffer()).equals(dat));

    const refusals: [string, Record<string, string>, number][] = [
      ['no credentials', {}, 401],
      ['no server named', { authorization: `Bearer ${first.secret}` }, 401],
      ['no bearer', { 'x-canopy-server': first.id }, 401],
      ['a wrong secret', as(first.id, 'not-the-secret-at-all-0123456789'), 403],
      ["another server's secret", as(first.id, second.secret), 403],
      ['an unknown server', as('no-such-server', first.secret), 403],
      [
        'a session token',
        as(first.id, (await ownerWithServer(api(), `dat3${process.pid % 1000}${api().dialect[0]}`)).sessionToken),
        403,
      ],
    ];
    for (const [what, headers, status] of refusals) {
      const res = await get(path, headers);
      assert.equal(res.status, status, what);
      const body = await res.json();
      assert.ok(!Buffer.from(JSON.stringify(body)).includes(dat.subarray(0, 16)), what);
    }
    for (const other of ['0'.repeat(64), 'bundled', `${version}x`]) {
      const res = await get(`/api/internal/items-dat/${other}`, as(second.id, second.secret));
      assert.equal(res.status, 404, other);
      assert.equal((await res.json()).code, 'items_version_not_found');
    }
  });

  it('is not limited per address: a burst of engines asking at once all get it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        get(`/api/internal/items-dat/${version}`, {
          authorization: `Bearer ${second.secret}`,
          'x-canopy-server': second.id,
        }).then(async (r) => ({ status: r.status, bytes: Buffer.from(await r.arrayBuffer()) })),
      ),
    );
    for (const a of answers) {
      assert.equal(a.status, 200);
      assert.ok(a.bytes.equals(dat));
    }
  });

  it('hands a starting engine the item database by version, which it fetches and uses', async () => {
    const owner = await ownerWithServer(api(), `dat4${api().dialect[0]}${process.pid % 1000}`);
    const row = await serversRepo.findByOwner(api().ctx.db, owner.user.id);
    const start = await api().request('POST', `/users/${owner.user.id}/server/${row?.name}/start`, {
      token: owner.sessionToken,
    });
    assert.equal(start.status, 202);
    await waitForStatus(api(), row?.name ?? '', 'ONLINE');
    const loaded = () =>
      api()
        .ctx.servers.runtime.consoleHistory(row?.id ?? '')
        .find((l) => /Loaded \d+ items/.test(l));
    await until(() => loaded() !== undefined, 'the engine to load its items');
    assert.match(loaded() ?? '', /Loaded 2 items \(items\.dat version 26\)/);
    const cached = readFileSync(
      join(api().ctx.config.dataDir, 'servers', row?.id ?? '', 'items-cache', `${version}.dat`),
    );
    assert.ok(cached.equals(dat), 'the engine keeps it by version');
  });
});
