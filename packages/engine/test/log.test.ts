import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { Logger, stdoutSink } from '../src/log.ts';

/** A stdout stand-in that keeps each write separately. */
function fakeStdout() {
  const writes: string[] = [];
  const stream = Object.assign(new EventEmitter(), { write: (text: string) => writes.push(text) > 0 });
  return { writes, stream: stream as unknown as NodeJS.WriteStream };
}

describe('engine log', () => {
  it('never prints a hidden host path: the data directory and the install are shown by name', () => {
    const printed: string[] = [];
    const log = new Logger({ sink: (text) => printed.push(text) });
    log.hidePath('/srv/canopy/data/servers/abc', '<data-dir>');
    log.hidePath('/srv/canopy', '<canopy>');
    log.warn(
      "Could not write the default kit.json: ENOSPC: no space left on device, open '/srv/canopy/data/servers/abc/kit.json.tmp'",
    );
    log.fatal('Uncaught error: Error: boom\n    at run (file:///srv/canopy/packages/engine/src/engine.ts:10:5)');
    const text = printed.join('');
    assert.doesNotMatch(text, /\/srv\/canopy/);
    assert.match(text, /open '<data-dir>\/kit\.json\.tmp'/);
    assert.match(text, /file:\/\/<canopy>\/packages\/engine\/src\/engine\.ts/);
    assert.equal(log.history().length, 3, 'a multi-line message is still several lines');
  });

  it('writes the lines of one run of code to stdout in one write, in order, once that code ends', async () => {
    const { writes, stream } = fakeStdout();
    const log = new Logger({ sink: stdoutSink(stream) });
    for (let i = 1; i <= 3; i++) log.info(`line ${i}`);
    log.warn('two\nparts');
    assert.equal(writes.length, 0, 'nothing is written while the code that logs runs');
    await Promise.resolve();
    assert.equal(writes.length, 1);
    assert.deepEqual(
      writes[0]?.split('\n').map((l) => l.replace(/^\S+ /, '')),
      ['[INFO] line 1', '[INFO] line 2', '[INFO] line 3', '[WARN] two', '[WARN] parts', ''],
    );
    // A lone line is not held back for a batch: it goes out as soon as the code that printed it ends.
    log.info('alone');
    await Promise.resolve();
    assert.equal(writes.length, 2);
    assert.match(writes[1] ?? '', /\[INFO\] alone\n$/);
  });

  it('writes the lines still waiting when the process exits, a FATAL line before an exit included', () => {
    const program = [
      `import { Logger } from ${JSON.stringify(new URL('../src/log.ts', import.meta.url).href)};`,
      'const log = new Logger();',
      "for (let i = 1; i <= 3; i++) log.info('line ' + i);",
      "log.fatal('cannot go on');",
      'process.exit(4);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
    assert.equal(run.status, 4, run.stderr);
    assert.deepEqual(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/^\S+ /, '')),
      ['[INFO] line 1', '[INFO] line 2', '[INFO] line 3', '[FATAL] cannot go on'],
    );
  });
});
