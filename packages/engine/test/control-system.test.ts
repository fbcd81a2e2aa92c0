import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { ENGINE_LOG_LINE, engineConsoleHistorySchema, engineReloadResponseSchema } from '@canopy/contract';
import {
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  TEST_SECRET,
  tearDown,
  tempDataDir,
} from './support/engine-process.ts';

/** Reads Server-Sent Events until `count` data events arrived, then disconnects. */
async function readEvents(
  url: string,
  count: number,
  onOpen: () => Promise<void>,
  headers: Record<string, string> = {},
) {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${TEST_SECRET}`, ...headers },
    signal: controller.signal,
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events: { seq: number; line: string }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body?.getReader();
  assert.ok(reader);
  await onOpen();
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((l) => l.startsWith('data: '));
      if (data) events.push(JSON.parse(data.slice(6)));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
  controller.abort();
  return events;
}

describe('control API: console, reload, backup, stop', () => {
  let engine: RunningEngine;
  const scratch = tempDataDir();
  before(async () => {
    engine = await startEngine();
    // Items are read after READY; their lines must not land amid the console history the first test reads.
    await engine.waitForLine(/Built effective-items\.dat/);
  });
  after(() => tearDown(engine, scratch));

  it('runs a console command as if typed, and keeps it in the history', async () => {
    const { body: before } = await engine.request('GET', '/console/history');
    const lastSeq = engineConsoleHistorySchema.parse(before).lines.at(-1)?.seq ?? 0;
    assert.deepEqual(await engine.request('POST', '/console', { command: '  say hello there  ' }), {
      status: 200,
      body: { ok: true },
    });
    assert.deepEqual(await engine.request('POST', '/console', { command: 'nonsense' }), {
      status: 200,
      body: { ok: true },
    });
    const history = engineConsoleHistorySchema.parse(
      (await engine.request('GET', `/console/history?after=${lastSeq}`)).body,
    );
    assert.deepEqual(
      history.lines.map((l) => l.line.replace(/^\S+ /, '')),
      [
        '[INFO] > say hello there',
        '[INFO] [SERVER] hello there (sent to 0 players)',
        '[INFO] > nonsense',
        '[WARN] Unknown command "nonsense". Type "help" for the list of commands.',
      ],
    );
    assert.deepEqual(
      history.lines.map((l) => l.seq),
      [lastSeq + 1, lastSeq + 2, lastSeq + 3, lastSeq + 4],
    );
    for (const l of history.lines) assert.match(l.line, ENGINE_LOG_LINE);
    const empty = await engine.request('POST', '/console', { command: '   ' });
    assert.deepEqual(empty, { status: 400, body: { error: 'command must not be empty.' } });
    assert.equal((await engine.request('GET', '/console/history?after=x')).status, 400);
  });

  it('streams new console lines as Server-Sent Events, and replays from a sequence number', async () => {
    const live = await readEvents(`${engine.url}/console/stream`, 2, async () => {
      await engine.request('POST', '/console', { command: 'say streamed' });
    });
    assert.match(live[0]?.line ?? '', /\[INFO\] > say streamed$/);
    assert.match(live[1]?.line ?? '', /\[SERVER\] streamed/);
    assert.equal(live[1]?.seq, (live[0]?.seq ?? 0) + 1);

    const from = (live[0]?.seq ?? 1) - 1;
    const replay = await readEvents(`${engine.url}/console/stream`, 2, async () => {}, {
      'last-event-id': String(from),
    });
    assert.deepEqual(replay, live, 'Last-Event-ID replays what came after it');
  });

  it('reloads the creator list and the autofarm delay, keeping the old value of an invalid file', async () => {
    assert.deepEqual(JSON.parse(readFileSync(join(engine.dataDir, 'creators.json'), 'utf8')), []);
    writeFileSync(join(engine.dataDir, 'creators.json'), JSON.stringify(['Alice', 'Bob']));
    writeFileSync(join(engine.dataDir, 'server-config.json'), JSON.stringify({ autofarmDelay: 250 }));
    const ok = await engine.request('POST', '/reload');
    assert.deepEqual(engineReloadResponseSchema.parse(ok.body), {
      creators: ['Alice', 'Bob'],
      autofarmDelay: 250,
      errors: [],
    });

    writeFileSync(join(engine.dataDir, 'server-config.json'), JSON.stringify({ autofarmDelay: 'fast' }));
    const from = engine.lines.length;
    const bad = await engine.request('POST', '/reload');
    assert.equal(bad.body.autofarmDelay, 250);
    assert.deepEqual(bad.body.errors, ['server-config.json: autofarmDelay: Autofarm delay must be a valid number.']);
    // The answer can come before the line (stdout is another pipe): wait for it, from this reload on.
    await engine.waitForLine(
      /\[ERROR\] Invalid server-config\.json: autofarmDelay: Autofarm delay must be a valid number\.; keeping the current value/,
      from,
    );
  });

  it('writes an online backup to a new absolute path only', async () => {
    const relative = await engine.request('POST', '/backup', { path: 'backup.db' });
    assert.deepEqual(relative, { status: 400, body: { error: 'path must be absolute (got "backup.db").' } });
    assert.equal((await engine.request('POST', '/backup', {})).body.error, 'path is required.');
    const noDir = await engine.request('POST', '/backup', { path: join(scratch, 'missing', 'b.db') });
    assert.equal(noDir.status, 400);

    const path = join(scratch, 'backup.db');
    const res = await engine.request('POST', '/backup', { path });
    assert.equal(res.status, 200);
    assert.equal(res.body.path, path);
    assert.ok(res.body.bytes > 0);
    const copy = new DatabaseSync(path, { readOnly: true });
    assert.equal(copy.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
    assert.equal(copy.prepare('PRAGMA journal_mode').get()?.journal_mode, 'delete', 'one self-contained file');
    assert.equal(copy.prepare("SELECT name FROM worlds WHERE name = 'START'").get()?.name, 'START');
    copy.close();
    assert.equal(existsSync(`${path}-wal`), false);

    const again = await engine.request('POST', '/backup', { path });
    assert.equal(again.status, 409);
    assert.match(again.body.error, /already exists/);
  });

  it('stops on POST /stop: 202, then a clean exit 0', async () => {
    const res = await engine.request('POST', '/stop');
    assert.deepEqual(res, { status: 202, body: { message: 'Stopping.' } });
    assert.equal((await engine.exited).code, 0);
    assert.equal(existsSync(join(engine.dataDir, 'engine.json')), false);
  });
});

describe('config files', () => {
  it('writes the defaults on first start', async () => {
    const engine = await startEngine();
    const read = (name: string) => JSON.parse(readFileSync(join(engine.dataDir, name), 'utf8'));
    assert.deepEqual(read('creators.json'), []);
    assert.deepEqual(read('server-config.json'), { autofarmDelay: 1000 });
    assert.deepEqual(read('newbie-kit.json'), { ITEMS: [{ Gemss: 0, Coin: 0, Seasonals_Token: 0, items: [] }] });
    assert.deepEqual(read('custom-items.json'), { items: [] });
    await stopEngine(engine);
    removeDataDir(engine.dataDir);
  });

  it('starts with an ERROR line and the defaults when a file is invalid, leaving the file as it was', async () => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'newbie-kit.json'), '{"ITEMS": [{"Gemss": -5}]}');
    writeFileSync(join(dataDir, 'custom-items.json'), '{ not json');
    const engine = await startEngine({ dataDir });
    assert.ok(engine.lines.some((l) => /\[ERROR\] Invalid newbie-kit\.json: ITEMS\.0\.Gemss: Too small/.test(l)));
    assert.ok(engine.lines.some((l) => /\[ERROR\] Invalid custom-items\.json is not valid JSON/.test(l)));
    assert.equal(readFileSync(join(dataDir, 'custom-items.json'), 'utf8'), '{ not json');
    assert.equal((await stopEngine(engine)).code, 0);
    removeDataDir(dataDir);
  });
});
