// The engine under Agones (src/agones.ts): Ready once the game port listens, Health while it runs, Shutdown when it
// stops; none of it, nor the SDK, when AGONES_SDK_GRPC_PORT is not set; a failing SDK server never stops the game.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startSdkServer } from './support/agones-sdk-server.ts';
import { dataDirsForFile, startEngine, stopEngine } from './support/engine-process.ts';

const dir = dataDirsForFile();

/** Resolves once `check` holds (the engine's calls arrive on their own schedule). */
async function until(check: () => boolean, what: string) {
  for (let i = 0; !check(); i++) {
    if (i > 400) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the engine under Agones', () => {
  it('says Ready after its READY line, pings Health while it runs, and Shutdown before it exits', async () => {
    const sdk = await startSdkServer();
    try {
      const engine = await startEngine({ dataDir: dir(), env: { AGONES_SDK_GRPC_PORT: String(sdk.port) } });
      await until(() => sdk.calls.includes('Ready'), 'Ready');
      await engine.waitForLine(/\[INFO\] Told Agones the server is Ready/);
      await until(() => sdk.calls.filter((c) => c === 'Health').length >= 2, 'two health pings');
      assert.equal((await engine.request('GET', '/stats')).status, 200);
      assert.equal(sdk.calls.filter((c) => c === 'Ready').length, 1, 'Ready once');

      const { code } = await stopEngine(engine);
      assert.equal(code, 0);
      assert.equal(sdk.calls.at(-1), 'Shutdown', 'Shutdown is the last call, made before the process exited');
      const stopped = engine.lines.findIndex((l) => l.includes('[INFO] Stopped'));
      const told = engine.lines.findIndex((l) => l.includes('Told Agones the server is shutting down'));
      assert.ok(stopped >= 0 && told > stopped, `Shutdown after the save, got:\n${engine.lines.join('\n')}`);
    } finally {
      sdk.close();
    }
  });

  it('in files-only mode pings Health and says Shutdown, but never Ready', async () => {
    const sdk = await startSdkServer();
    try {
      const dataDir = dir();
      const engine = await startEngine({
        dataDir,
        args: ['--files-only', '--data-dir', dataDir, '--control-port', '0'],
        env: { AGONES_SDK_GRPC_PORT: String(sdk.port) },
      });
      await until(() => sdk.calls.includes('Health'), 'a health ping');
      const { code } = await stopEngine(engine);
      assert.equal(code, 0);
      assert.ok(!sdk.calls.includes('Ready'), `no Ready, got ${sdk.calls.join(', ')}`);
      assert.equal(sdk.calls.at(-1), 'Shutdown');
    } finally {
      sdk.close();
    }
  });

  it('logs a WARN when Ready fails and keeps serving', async () => {
    const sdk = await startSdkServer();
    sdk.failReady = true;
    try {
      const engine = await startEngine({ dataDir: dir(), env: { AGONES_SDK_GRPC_PORT: String(sdk.port) } });
      await engine.waitForLine(/\[WARN\] Agones Ready failed: .*told to fail/);
      assert.equal((await engine.request('GET', '/stats')).status, 200);
      await until(() => sdk.calls.includes('Health'), 'a health ping after the failed Ready');
      assert.equal((await stopEngine(engine)).code, 0);
    } finally {
      sdk.close();
    }
  });

  it('pings Health again once a restarted SDK server is back on its port', async () => {
    const first = await startSdkServer();
    const engine = await startEngine({ dataDir: dir(), env: { AGONES_SDK_GRPC_PORT: String(first.port) } });
    await until(() => first.calls.includes('Health'), 'a health ping');
    first.close();
    const second = await startSdkServer(first.port);
    try {
      await until(() => second.calls.includes('Health'), 'a health ping to the restarted server');
      assert.equal((await stopEngine(engine)).code, 0);
    } finally {
      second.close();
    }
  });

  it('logs a WARN when no SDK server answers, plays on, and stops at once', async () => {
    const sdk = await startSdkServer();
    const port = sdk.port;
    sdk.close();
    const engine = await startEngine({ dataDir: dir(), env: { AGONES_SDK_GRPC_PORT: String(port) } });
    await engine.waitForLine(/\[WARN\] Agones SDK server on port \d+ not reachable yet/);
    assert.equal((await engine.request('GET', '/stats')).status, 200);
    assert.equal((await stopEngine(engine)).code, 0);
  });
});

describe('the engine not under Agones', () => {
  // A module hook that names every module loaded whose specifier mentions agones or grpc.
  const hooks = mkdtempSync(join(tmpdir(), 'canopy-agones-hook-'));
  const hook = join(hooks, 'hook.mjs');
  writeFileSync(
    hook,
    `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  if (/agones|grpc/i.test(specifier)) process.stderr.write('LOADED ' + specifier + '\\n');
  return next(specifier, context);
} });\n`,
  );
  after(() => rmSync(hooks, { recursive: true, force: true }));

  it('loads neither the Agones module nor the SDK, and the hook would see them if it did', async () => {
    const plain = await startEngine({
      dataDir: dir(),
      env: { NODE_OPTIONS: `--import=${hook}`, AGONES_SDK_GRPC_PORT: undefined },
    });
    assert.equal((await plain.request('GET', '/stats')).status, 200);
    assert.equal((await stopEngine(plain)).code, 0);
    assert.doesNotMatch(plain.stderr(), /LOADED/);
    assert.ok(!plain.lines.some((l) => /Agones/.test(l)), plain.lines.join('\n'));

    const sdk = await startSdkServer();
    try {
      const under = await startEngine({
        dataDir: dir(),
        env: { NODE_OPTIONS: `--import=${hook}`, AGONES_SDK_GRPC_PORT: String(sdk.port) },
      });
      await until(() => sdk.calls.includes('Ready'), 'Ready');
      assert.equal((await stopEngine(under)).code, 0);
      assert.match(under.stderr(), /LOADED \.\/agones\.ts/);
      assert.match(under.stderr(), /LOADED @google-cloud\/agones-sdk/);
    } finally {
      sdk.close();
    }
  });
});
