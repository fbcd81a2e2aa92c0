import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINE_LOG_LINE } from '@canopy/contract';
import { killAll, type RunningEngine, removeDataDir, startEngine, stopEngine } from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';

describe('console on stdin', () => {
  let engine: RunningEngine;
  before(async () => {
    engine = await startEngine();
    assert.equal((await engine.request('PUT', '/players/Grower1', buildPlayer({ inventory: [[2, 190]] }))).status, 201);
  });
  after(async () => {
    await stopEngine(engine);
    killAll();
    removeDataDir(engine.dataDir);
  });

  /** Types a command and resolves with the output lines up to the one matching `until`. */
  async function type(command: string, until: RegExp): Promise<string[]> {
    const from = engine.lines.length;
    engine.type(command);
    const last = await engine.waitForLine(until, from);
    const lines = engine.lines.slice(from);
    return lines.slice(0, lines.indexOf(last) + 1);
  }

  it('echoes the command and lists every command on help', async () => {
    const out = await type('help', /\bstop\s+saves everything/);
    assert.match(out[0] ?? '', /\[INFO\] > help$/);
    for (const name of ['help', 'say', 'players', 'worlds', 'kick', 'ban', 'unban', 'give', 'save', 'stop'])
      assert.ok(
        out.some((l) => new RegExp(`\\[INFO\\]\\s+${name}\\b`).test(l)),
        `help lists ${name}`,
      );
  });

  it('floods numbered, timestamped lines for console benchmarks', async () => {
    const out = await type('flood 1200', /flood 1200\/1200 t=/);
    const flood = out.filter((l) => / flood \d+\/1200 t=\d+\.\d{3}$/.test(l));
    assert.equal(flood.length, 1200);
    assert.match((await type('flood lots', /Usage: flood/)).at(-1) ?? '', /\[WARN\] Usage: flood <count>/);
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
    assert.match((await type('players', /player\(s\) online/)).at(-1) ?? '', /0 player\(s\) online of 1 registered/);
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

  it('saves on demand', async () => {
    assert.match((await type('save', /Saved/)).at(-1) ?? '', /\[INFO\] Saved 1 worlds and 1 players$/);
  });

  it('prints every line in the documented format', () => {
    for (const line of engine.lines) assert.match(line, ENGINE_LOG_LINE);
  });

  it('stops on the stop command with status 0', async () => {
    engine.type('stop');
    const { code } = await engine.exited;
    assert.equal(code, 0);
    assert.match(engine.lines.at(-1) ?? '', /\[INFO\] Stopped$/);
  });
});
