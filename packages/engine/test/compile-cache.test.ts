import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { ENGINE_NODE_ENV, ENGINE_NODE_FLAGS } from '../src/index.ts';
import { ENGINE_MAIN, removeDataDir, TEST_SECRET, tempDataDir } from './support/engine-process.ts';

// What the api's local runtime does before its first engine (apps/api/src/runtime/local/engine-process.ts):
// an engine that finds a module missing from the cache strips TypeScript itself and stays ~20 MB bigger.
describe('--warm-compile-cache', () => {
  const cache = tempDataDir();
  const dataDir = tempDataDir();
  after(() => {
    removeDataDir(cache);
    removeDataDir(dataDir);
  });
  const env = { ...ENGINE_NODE_ENV, PATH: process.env.PATH, NODE_COMPILE_CACHE: cache };

  it('loads every module and exits 0 without starting anything', () => {
    const run = spawnSync(process.execPath, [...ENGINE_NODE_FLAGS, ENGINE_MAIN, '--warm-compile-cache'], {
      env,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '');
  });

  it('leaves nothing for an engine under the same flags to compile, including what it loads after READY', async () => {
    const child = spawn(
      process.execPath,
      [...ENGINE_NODE_FLAGS, ENGINE_MAIN, '--data-dir', dataDir, '--game-port', '0', '--control-port', '0'],
      { env: { ...env, CANOPY_ENGINE_SECRET: TEST_SECRET, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } },
    );
    let debug = '';
    child.stderr.on('data', (d) => {
      debug += d;
    });
    const exited = new Promise((resolve) => child.on('close', resolve));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const waitFor = async (pattern: RegExp) => {
      for (let next = await lines.next(); !next.done; next = await lines.next()) if (pattern.test(next.value)) return;
      assert.fail(`the engine ended before printing ${pattern}`);
    };
    const loaded = () => debug.split('\n').filter((l) => l.includes('[compile cache] reading cache from'));
    // @canopy/formats is imported after READY, to build effective-items.dat.
    await waitFor(/\[INFO\] Built effective-items\.dat/);
    // Idle, an engine has not loaded zod (docs/decisions/0024-lean-engine.md) ...
    assert.deepEqual(
      loaded().filter((l) => /zod|contract\/src\/engine\.ts/.test(l)),
      [],
    );
    // ... which the first command (parsed with the contract's grammar) loads, with the schemas.
    child.stdin.write('help\n');
    await waitFor(/\[INFO\] Commands:/);
    child.stdin.write('stop\n');
    assert.equal(await exited, 0);
    const reads = loaded();
    assert.ok(
      reads.some((l) => l.includes('packages/formats/src/')),
      'the debug output names the formats modules',
    );
    assert.ok(
      reads.some((l) => l.includes('packages/contract/src/engine.ts')) &&
        reads.some((l) => /node_modules\/zod\//.test(l)),
      'the debug output names the contract schemas and zod',
    );
    const misses = reads.filter((l) => !/success, size=\d+$/.test(l));
    assert.deepEqual(misses, []);
  });
});
