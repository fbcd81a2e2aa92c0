import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultServerConfig, engineConfigFiles } from '@canopy/contract';
import { killAll, removeDataDir, startEngine, stopEngine, TEST_SECRET, tempDataDir } from './support/engine-process.ts';
import { buildWorld } from './support/factories.ts';

const dirs: string[] = [];
after(() => {
  killAll();
  for (const d of dirs) removeDataDir(d);
});

const mode = (path: string) => statSync(path).mode & 0o777;
const assertMode = (path: string, expected: number) =>
  assert.equal(mode(path), expected, `${path} is ${mode(path).toString(8)}, expected ${expected.toString(8)}`);

describe('data directory modes', () => {
  it('makes the data directory 0700 and every file in it 0600, also what an older engine left wider', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755);
    // What an engine before this change left: a world-readable database and config file.
    writeFileSync(join(dataDir, 'engine.db'), '', { mode: 0o644 });
    writeFileSync(join(dataDir, engineConfigFiles.serverConfig), JSON.stringify(defaultServerConfig), {
      mode: 0o644,
    });
    chmodSync(join(dataDir, 'engine.db'), 0o644);
    chmodSync(join(dataDir, engineConfigFiles.serverConfig), 0o644);

    const engine = await startEngine({ dataDir });
    // A write, so that the WAL holds something while the engine runs.
    const saved = await engine.request('PUT', '/worlds/MODES', buildWorld());
    assert.ok(saved.status >= 200 && saved.status < 300, JSON.stringify(saved.body));
    assertMode(dataDir, 0o700);
    for (const name of readdirSync(dataDir)) assertMode(join(dataDir, name), 0o600);
    for (const f of ['engine.db', 'engine.json', ...Object.values(engineConfigFiles)])
      assert.ok(existsSync(join(dataDir, f)), `${f} exists`);
    assert.ok(
      !readFileSync(join(dataDir, 'engine.db')).includes(TEST_SECRET),
      'the control secret is not in the database',
    );
    await stopEngine(engine);
    for (const name of readdirSync(dataDir)) assertMode(join(dataDir, name), 0o600);
  });
});
