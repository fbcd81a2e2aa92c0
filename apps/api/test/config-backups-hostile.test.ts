// Regression tests from an attack on the Backup Manager and Configuration routes (issue 9): each one failed
// before its fix. Parallel creates each made a full snapshot; a locked Backup Manager read the body before
// refusing; texture uploads had no line (twenty at once held ~450 MB); a config write racing a server
// deletion brought the deleted server's folder back.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { backupMessages as b, messages, serverPageMessages as p } from '@canopy/contract';
import { encodeRttxtr } from '@canopy/formats';
import { ENGINE_BACKUP_TIMEOUT_MS } from '../src/backups/backups.service.ts';
import { ServerFiles } from '../src/runtime/server-files.ts';
import { MAX_WAITING_WRITES, WriteQueue } from '../src/server-data/write-queue.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

/** A request on a raw socket that sends its headers and `first` bytes of `body`; the rest on `finish`. */
function partial(api: TestApi, method: string, path: string, token: string, body: Buffer, first: number) {
  const socket = connect(Number(new URL(api.url).port), '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => {
    answer += d;
  });
  socket.on('error', () => {});
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, first));
  return { finish: () => socket.write(body.subarray(first)), drop: () => socket.destroy(), answer: ended };
}

/**
 * Watches every write queue of the api (it runs in this process): `entered` counts the requests that reached
 * their queue (admitted past authorization; in line or holding the turn), `turns` those that got the turn.
 * A test waits for these instead of for time.
 */
function watchWriteQueues() {
  const enter = WriteQueue.prototype.enter;
  const seen = { entered: 0, turns: 0 };
  WriteQueue.prototype.enter = function (this: WriteQueue, ...args: Parameters<typeof enter>) {
    seen.entered++; // the line is joined synchronously inside enter, before its first await
    const turn = enter.apply(this, args);
    turn.then(
      () => seen.turns++,
      () => {},
    );
    return turn;
  };
  const until = async (what: string, done: () => boolean) => {
    for (let i = 0; !done(); i++) {
      if (i > 2000) throw new Error(`write queues never reached: ${what} (${JSON.stringify(seen)})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { seen, until, restore: () => Object.assign(WriteQueue.prototype, { enter }) };
}

const status = (answer: string) => Number(answer.split(' ')[1]);
const json = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

function textureBody(fill: number) {
  const rgba = new Uint8Array(64 * 64 * 4).fill(fill);
  const rttexBase64 = Buffer.from(encodeRttxtr({ width: 64, height: 64, rgba })).toString('base64');
  return Buffer.from(JSON.stringify({ itemName: `Block ${fill}`, rarity: 999, rttexBase64, properties: {} }));
}

describeEachDatabase('backup and configuration routes under attack', (api) => {
  let owner: Session;
  let server = '';
  let serverId = '';
  const call = (s: Session, method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });

  before(async () => {
    owner = await signInRegistered(api());
    server = `atk${api().dialect[0]}${process.pid % 1000}`;
    assert.equal((await call(owner, 'POST', '', { serverName: server })).status, 201);
    serverId = (await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]))
      ?.id as string;
  });

  it('lets one of many parallel creates snapshot the database; the others are refused', async () => {
    assert.equal((await call(owner, 'POST', `/${server}/start`)).status, 202);
    await waitForStatus(api(), server, 'ONLINE');
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(owner, 'POST', '/backup')));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409))
      assert.ok([b.busy, b.alreadyExists].includes(a.body.error));
    const snapshots = api()
      .ctx.servers.runtime.consoleHistory(serverId)
      .filter((line) => line.includes('Database snapshot taken'));
    assert.equal(snapshots.length, 1, `one snapshot, not one per request: ${snapshots.join(' | ')}`);
    assert.equal((await call(owner, 'DELETE', '/backup')).status, 200);

    // The create waits for the engine's snapshot as long as it may take, not a file call's usual timeout.
    const snapshot = ServerFiles.prototype.snapshot;
    const waits: (number | undefined)[] = [];
    ServerFiles.prototype.snapshot = function (this: ServerFiles, ...args: Parameters<typeof snapshot>) {
      waits.push(args[1]);
      return snapshot.apply(this, args);
    };
    try {
      assert.equal((await call(owner, 'POST', '/backup')).status, 200);
    } finally {
      ServerFiles.prototype.snapshot = snapshot;
    }
    assert.deepEqual(waits, [ENGINE_BACKUP_TIMEOUT_MS]);
    assert.ok(ENGINE_BACKUP_TIMEOUT_MS >= 60_000);
    assert.equal((await call(owner, 'DELETE', '/backup')).status, 200);
    assert.equal((await call(owner, 'POST', `/${server}/stop`)).status, 202);
    await waitForStatus(api(), server, 'OFFLINE');
  });

  it("clears what a killed engine's online backup left in the account's backup folder", async () => {
    const dir = join(api().ctx.config.dataDir, 'backups', owner.user.id);
    mkdirSync(dir, { recursive: true });
    // The engine's copy beside the api's temporary name, left when a stop had to kill the engine mid-backup.
    const leftover = join(dir, 'backup.db.tmp-1b4e28ba-2fa1-11d2-883f-0016d3cca427.partial-4242-1');
    writeFileSync(leftover, Buffer.alloc(1024 * 1024));
    assert.equal((await call(owner, 'POST', '/backup')).status, 200);
    assert.equal(existsSync(leftover), false, 'the leftover stays, uncounted');
    assert.deepEqual(readdirSync(dir), ['backup.db']);
    assert.equal((await call(owner, 'DELETE', '/backup')).status, 200);
  });

  it('refuses restores sent at once but one, instead of queueing them without bound', async () => {
    assert.equal((await call(owner, 'POST', '/backup')).status, 200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(owner, 'POST', '/backup/restore')));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) assert.equal(a.body.error, b.busy);
    assert.equal((await call(owner, 'DELETE', '/backup')).status, 200);
  });

  it('refuses a locked Backup Manager before reading the body', async () => {
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('disableBackupManager', 'true')");
    try {
      const path = `/users/${owner.user.id}/server/backup`;
      const upload = partial(api(), 'POST', path, owner.sessionToken, Buffer.alloc(5 * 1024 * 1024, 32), 16);
      const answer = await upload.answer;
      assert.equal(status(answer), 403, answer.split('\r\n')[0]);
      assert.equal(json(answer).error, messages.featureDisabled);
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'disableBackupManager'");
    }
  });

  it('takes texture uploads one at a time per server with a bounded line (429 past it, nothing written)', async () => {
    const path = `/users/${owner.user.id}/server/custom-item`;
    const queues = watchWriteQueues();
    let waiters: ReturnType<typeof partial>[] = [];
    try {
      const holder = partial(api(), 'POST', path, owner.sessionToken, textureBody(1), 100);
      await queues.until('the holder has its turn', () => queues.seen.turns === 1);
      waiters = Array.from({ length: MAX_WAITING_WRITES }, (_, i) =>
        partial(api(), 'POST', path, owner.sessionToken, textureBody(10 + i), 0),
      );
      await queues.until('the line is full', () => queues.seen.entered === 1 + MAX_WAITING_WRITES);
      assert.equal(queues.seen.turns, 1, 'the waiters wait');
      const over = await call(owner, 'POST', '/custom-item', JSON.parse(textureBody(2).toString()));
      assert.equal(over.status, 429, JSON.stringify(over.body));
      assert.equal(over.body.code, 'writes_queued');
      for (const w of waiters) w.drop();
      holder.finish();
      assert.equal(status(await holder.answer), 200);
    } finally {
      for (const w of waiters) w.drop();
      queues.restore();
    }
    const items = (await call(owner, 'GET', '/item-config')).body.items as { Name: string }[];
    assert.deepEqual(
      items.map((i) => i.Name),
      ['Block 1'],
    );
  });

  it('a restore that loses the power lock to a start leaves the server wanted running', async () => {
    assert.equal((await call(owner, 'POST', '/backup')).status, 200); // offline copy
    const runtime = api().ctx.servers.runtime;
    const row = await api().ctx.db.get('SELECT * FROM servers WHERE id = ?', [serverId]);
    // A start arrives while the restore verifies the backup (after its busy check): as the power route does,
    // it records the wish, then takes the lock. The start takes the lock exactly when the restore reaches for
    // it, so the restore finds it taken however long either of them takes (an engine start is not assumed
    // to outlast the restore's checks).
    await sql(api(), "UPDATE servers SET desired_state = 'running' WHERE id = ?", [serverId]);
    const exclusive = runtime.exclusive;
    let started: Promise<void> | undefined;
    runtime.exclusive = function (this: typeof runtime, ...args: Parameters<typeof exclusive>) {
      started ??= runtime.start(api().ctx.servers.spec(row as never));
      return exclusive.apply(this, args);
    } as typeof exclusive;
    try {
      const refused = await call(owner, 'POST', '/backup/restore');
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
    } finally {
      runtime.exclusive = exclusive;
    }
    assert.ok(started, 'the restore reached for the power lock');
    await started;
    const wish = await api().ctx.db.get<{ desired_state: string }>('SELECT desired_state FROM servers WHERE id = ?', [
      serverId,
    ]);
    assert.equal(wish?.desired_state, 'running', 'the running server is marked stopped');
    assert.equal((await call(owner, 'POST', `/${server}/stop`)).status, 202);
    await waitForStatus(api(), server, 'OFFLINE');
    assert.equal((await call(owner, 'DELETE', '/backup')).status, 200);
  });

  it('a config write that races the deletion of its server leaves no folder behind', async () => {
    // Where the local driver keeps the server's data: its remove() deletes it.
    const dir = join(api().ctx.config.dataDir, 'servers', serverId);
    const path = `/users/${owner.user.id}/server/custom-item`;
    const queues = watchWriteQueues();
    const upload = partial(api(), 'POST', path, owner.sessionToken, textureBody(3), 10);
    try {
      // Past authorization and admitted (its turn taken), waiting for its body.
      await queues.until('the upload is admitted', () => queues.seen.turns === 1);
    } finally {
      queues.restore();
    }
    assert.equal((await call(owner, 'DELETE', '')).status, 200);
    assert.equal(existsSync(dir), false);
    upload.finish();
    const answer = await upload.answer;
    assert.equal(status(answer), 404, answer);
    assert.equal(json(answer).error, p.noServer);
    assert.equal(existsSync(dir), false, 'the deleted server folder came back');
  });
});
