import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENGINE_LOG_LINE, engineEnv } from '@canopy/contract';
import { parseArgs } from '../src/cli/args.ts';
import { type RunningEngine, startEngine, TEST_SECRET, tearDown, tempDataDir } from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** Types a command and resolves with the output lines up to the one matching `until`. */
async function typeInto(engine: RunningEngine, command: string, until: RegExp): Promise<string[]> {
  const from = engine.lines.length;
  engine.type(command);
  const last = await engine.waitForLine(until, from);
  const lines = engine.lines.slice(from);
  return lines.slice(0, lines.indexOf(last) + 1);
}

describe('console on stdin', () => {
  let engine: RunningEngine;
  before(async () => {
    // Not started for a benchmark, even if the test runner's environment says so.
    engine = await startEngine({ env: { [engineEnv.benchCommands]: undefined } });
    assert.equal((await engine.request('PUT', '/players/Grower1', buildPlayer({ inventory: [[2, 190]] }))).status, 201);
    assert.equal((await engine.request('PUT', '/players/Grower2', buildPlayer({ gems: 0 }))).status, 201);
  });
  after(() => tearDown(engine));

  const type = (command: string, until: RegExp) => typeInto(engine, command, until);

  it('echoes the command and lists every command on help, without the benchmark ones', async () => {
    const out = await type('help', /\bstop\s+saves everything/);
    assert.match(out[0] ?? '', /\[INFO\] > help$/);
    for (const name of ['help', 'say', 'players', 'worlds', 'kick', 'ban', 'unban', 'give', 'save', 'stop'])
      assert.ok(
        out.some((l) => new RegExp(`\\[INFO\\]\\s+${name}\\b`).test(l)),
        `help lists ${name}`,
      );
    assert.ok(!out.some((l) => /\bflood\b/.test(l)), 'help does not offer flood');
  });

  it('has no flood unless started for a benchmark', async () => {
    const out = await type('flood 2000000', /Unknown command/);
    assert.match(out.at(-1) ?? '', /\[WARN\] Unknown command "flood"\. Type "help" for the list of commands\.$/);
    assert.ok(!out.some((l) => / flood \d+\//.test(l)), 'not one flood line');
  });

  it('reads commands with the grammar: case, slash, whitespace and look-alikes', async () => {
    assert.match(
      (await type('  /ＳＡＹ \t hello\u200d   there ', /\[SERVER\]/))[0] ?? '',
      /\[INFO\] > say hello there$/,
    );
    assert.match((await type('PLAYERS', /player\(s\) online/))[0] ?? '', /\[INFO\] > players$/);
  });

  it('does not stop on stop with arguments, control characters or unknown look-alikes', async () => {
    for (const line of ['stop now', 'STOP\tnow', 'ｓｔｏｐ ｎｏｗ', '/quit please'])
      assert.match((await type(line, /Usage: stop/)).at(-1) ?? '', /\[WARN\] Usage: stop$/);
    // Over the control API a command can hold what a line on stdin cannot.
    for (const command of ['stop\u0000', 'say hi\nstop', 'say x\rstop', '\u001bstop']) {
      const from = engine.lines.length;
      assert.equal((await engine.request('POST', '/console', { command })).status, 200);
      assert.match(await engine.waitForLine(/control characters/, from), /\[WARN\] A command must be a single line/);
    }
    assert.match((await type('ѕtop', /Unknown command/)).at(-1) ?? '', /Unknown command "ѕtop"/);
    assert.equal((await engine.request('GET', '/stats')).status, 200, 'still running');
  });

  it('warns on an unknown command and keeps going', async () => {
    const out = await type('frobnicate now', /Unknown command/);
    assert.match(out.at(-1) ?? '', /\[WARN\] Unknown command "frobnicate"\. Type "help" for the list of commands\.$/);
    assert.equal((await engine.request('GET', '/stats')).status, 200);
  });

  it('says, and lists players and worlds', async () => {
    assert.match(
      (await type('say Welcome to the server', /\[SERVER\]/)).at(-1) ?? '',
      /\[SERVER\] Welcome to the server \(sent to 0 players\)/,
    );
    assert.match((await type('players', /player\(s\) online/)).at(-1) ?? '', /0 player\(s\) online of 2 registered/);
    const worlds = await type('worlds', /START owner=- players=0 open/);
    assert.ok(worlds.some((l) => /\[INFO\] 1 world\(s\)$/.test(l)));
  });

  it('kicks only players who are online', async () => {
    assert.match((await type('kick Grower1', /not online/)).at(-1) ?? '', /\[WARN\] Grower1 is not online/);
  });

  it('bans and unbans', async () => {
    await type('ban grower1 spamming the chat', /Banned/);
    assert.match(engine.lines.at(-1) ?? '', /\[INFO\] Banned grower1 \(spamming the chat\)/);
    assert.equal((await engine.request('GET', '/players/Grower1')).body.banned, true);
    await type('unban GROWER1', /Unbanned/);
    assert.equal((await engine.request('GET', '/players/Grower1')).body.banned, false);
    assert.match((await type('ban Nobody123', /No player/)).at(-1) ?? '', /\[WARN\] No player named Nobody123/);
  });

  it('gives items by id or by name from items.dat, up to the stack limit, and gems', async () => {
    await type('give Grower1 242 3', /Gave/);
    assert.match(engine.lines.at(-1) ?? '', /Gave 3 World Lock \(id 242\) to Grower1 \(now 3\)/);
    await type('give Grower1 world lock 2', /Gave/);
    assert.match(engine.lines.at(-1) ?? '', /Gave 2 World Lock \(id 242\) to Grower1 \(now 5\)/);
    await type('give Grower1 Dirt 50', /Gave/);
    assert.match(
      engine.lines.at(-1) ?? '',
      /Gave 10 Dirt \(id 2\) to Grower1 \(now 200\); 40 did not fit \(at most 200\)/,
    );
    await type('give Grower1 gems 800', /Gave/);
    assert.match(engine.lines.at(-1) ?? '', /Gave 800 gems to Grower1 \(now 2000\)/);
    const player = (await engine.request('GET', '/players/Grower1')).body;
    assert.deepEqual(
      player.inventory.find(([id]: [number]) => id === 242),
      [242, 5],
    );
    assert.equal(player.gems, 2000);
    assert.match(
      (await type('give Grower1 Unobtainium', /No item/)).at(-1) ?? '',
      /\[WARN\] No item named "Unobtainium"/,
    );
    assert.match((await type('give', /Usage/)).at(-1) ?? '', /\[WARN\] Usage: give <player> <item\|gems> \[amount\]/);
  });

  it('caps give at what a player can hold and prints what was applied', async () => {
    await type('give Grower2 gems 9999999999', /Gave/);
    assert.match(
      engine.lines.at(-1) ?? '',
      /\[INFO\] Gave 2147483647 gems to Grower2 \(now 2147483647\); the rest did not fit \(at most 2147483647 gems\)$/,
    );
    await type('give Grower2 gems 5', /Gave/);
    assert.match(engine.lines.at(-1) ?? '', /Gave 0 gems to Grower2 \(now 2147483647\); the rest did not fit/);
    await type(`give Grower2 Dirt ${'9'.repeat(400)}`, /Gave/);
    assert.match(
      engine.lines.at(-1) ?? '',
      /\[INFO\] Gave 150 Dirt \(id 2\) to Grower2 \(now 200\); the rest did not fit \(at most 200\)$/,
    );
    const player = (await engine.request('GET', '/players/Grower2')).body;
    assert.equal(player.gems, 2147483647);
    assert.ok(
      !engine.lines.some((l) => l.includes('9999999999') && !l.includes('> give')),
      'the request is not echoed as applied',
    );
  });

  it('names a backup file without its host path', async () => {
    const path = join(engine.dataDir, 'console-backup.db');
    assert.equal((await engine.request('POST', '/backup', { path })).status, 200);
    assert.match(
      await engine.waitForLine(/Backup written/),
      /\[INFO\] Backup written to console-backup\.db \(\d+ bytes/,
    );
  });

  it('names items.dat without a host path, and no line holds one', async () => {
    const loaded = await engine.waitForLine(/Loaded \d+ items/);
    assert.match(loaded, /\[INFO\] Loaded \d+ items \(items\.dat version \d+\) from items\.dat \(default\)$/);
    for (const line of engine.lines) {
      assert.ok(!line.includes(REPO_ROOT), line);
      assert.ok(!line.includes(engine.dataDir), line);
    }
  });

  it('saves on demand', async () => {
    assert.match((await type('save', /Saved/)).at(-1) ?? '', /\[INFO\] Saved 1 worlds and 2 players$/);
  });

  it('prints every line in the documented format', () => {
    for (const line of engine.lines) assert.match(line, ENGINE_LOG_LINE);
  });

  it('stops on the stop command, however it is spelled, with status 0', async () => {
    engine.type('  /Ｓ\u200dＴｏＰ\t');
    const { code } = await engine.exited;
    assert.equal(code, 0);
    assert.match(engine.lines.at(-1) ?? '', /\[INFO\] Stopped$/);
  });
});

describe('console of an engine started for a benchmark', () => {
  let engine: RunningEngine;
  const dataDir = tempDataDir();
  before(async () => {
    const missing = join(dataDir, 'extra', 'broken-items.dat');
    engine = await startEngine({
      dataDir,
      args: [
        '--data-dir',
        dataDir,
        '--game-port',
        '0',
        '--control-port',
        '0',
        '--bench-commands',
        '--items-dat',
        missing,
      ],
    });
  });
  after(() => tearDown(engine, dataDir));

  it('floods numbered, timestamped lines, a bounded number of them', async () => {
    const out = await typeInto(engine, 'flood 1200', /flood 1200\/1200 t=/);
    const flood = out.filter((l) => / flood \d+\/1200 t=\d+\.\d{3}$/.test(l));
    assert.equal(flood.length, 1200);
    assert.match(
      (await typeInto(engine, 'flood lots', /Usage: flood/)).at(-1) ?? '',
      /\[WARN\] Usage: flood <count> \(1-1000000\)/,
    );
    const over = await typeInto(engine, 'flood 1000001', /Usage: flood/);
    assert.ok(!over.some((l) => / flood \d+\//.test(l)));
    assert.match((await typeInto(engine, 'help', /flood <count>/)).at(-1) ?? '', /\[INFO\]\s+flood <count>/);
  });

  it('names an unreadable items.dat by its name, not its path', async () => {
    const line = await engine.waitForLine(/Could not read/);
    assert.match(line, /\[ERROR\] Could not read extra\/broken-items\.dat: ENOENT: .*'extra\/broken-items\.dat'/);
    for (const l of engine.lines) assert.ok(!l.includes(dataDir), l);
  });

  it('takes the flag from the environment too', () => {
    const base = ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'];
    const env = { [engineEnv.secret]: TEST_SECRET };
    const read = (argv: string[], extra: Record<string, string> = {}) => {
      const o = parseArgs(argv, { ...env, ...extra });
      return typeof o === 'string' ? assert.fail(o) : o.benchCommands;
    };
    assert.equal(read(base), false);
    assert.equal(read(base, { [engineEnv.benchCommands]: 'false' }), false);
    assert.equal(read(base, { [engineEnv.benchCommands]: '1' }), true);
    assert.equal(read([...base, '--bench-commands']), true);
  });
});
