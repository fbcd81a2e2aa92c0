import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ENGINE_LOG_LINE, ENGINE_READY_MESSAGE } from '@canopy/contract';
import { engineEnv } from '@canopy/contract/engine-constants';
import { layoutProblems } from '../../../scripts/image/check-layout.ts';
import { gameServerManifest } from '../src/runtime/kubernetes/objects.ts';
import { startLine } from './support/api-process.ts';
import { copyRepository, dockerfileEnv } from './support/deploy-files.ts';
import { untilValue } from './support/until.ts';

// The container image's build steps (scripts/image/build.sh, which the Dockerfile RUNs) run as a plain script on a
// clean copy of the repository, then the api started from the assembled layout as the image starts it (ADR 0047).
// No container is built here: the base image, the user and the volume are the Dockerfile's alone.
// 30-60 s on a busy 2-core machine with a warm npm cache (load average 2-8), most of it the two
// npm ci; the api itself starts and stops in a few seconds.

const run = promisify(execFile);

/** A PATH like the image's: `node` is this Node 24, and nothing of the repository's node_modules/.bin. */
function imagePath(root: string) {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  return `${bin}:/usr/local/bin:/usr/bin:/bin`;
}

/** This environment without npm's own variables (an outer `npm test` sets some) and with a PATH of our own. */
function cleanEnv(path: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name)) env[name] = value;
  return { ...env, PATH: path, ...extra };
}

/** One stage of build.sh in `dir`; its output goes into the failure message. */
async function stage(name: string, dir: string, env: NodeJS.ProcessEnv) {
  try {
    await run('sh', ['scripts/image/build.sh', name], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    assert.fail(`build.sh ${name} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** `node scripts/image/healthcheck.ts <probe>` in `dir`: its exit code and what it printed. */
async function healthcheck(dir: string, env: NodeJS.ProcessEnv, probe: string) {
  try {
    const { stdout } = await run('node', ['scripts/image/healthcheck.ts', probe], { cwd: dir, env });
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** A process started in the layout, what it prints (stdout and stderr) kept for waits and failure messages. */
function spawnInLayout(command: string, args: string[], dir: string, env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (d: Buffer) => {
    out += d;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('container image build steps on a clean copy of the repository', { timeout: 600_000 }, () => {
  let root: string;
  let app: string;
  let path: string;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'canopy-image-'));
    path = imagePath(root);
    const env = cleanEnv(path, { npm_config_prefer_offline: 'true' });
    // The Dockerfile's stages: `web` in one copy, `app` in another with the web stage's dist copied in.
    const web = join(root, 'web');
    app = join(root, 'app');
    copyRepository(web);
    copyRepository(app);
    await stage('web', web, env);
    cpSync(join(web, 'apps/web/dist'), join(app, 'apps/web/dist'), { recursive: true });
    await stage('app', app, env);
  });

  after(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('the layout holds the built web app, the production dependencies and no dev-only package', () => {
    assert.deepEqual(layoutProblems(app), []);
    for (const dev of ['typescript', '@biomejs/biome', 'playwright-core', 'vite', 'node', 'yaml'])
      assert.equal(existsSync(join(app, 'node_modules', dev)), false, `${dev} is a dev dependency`);
    for (const prod of ['fastify', 'pg', 'zod', '@google-cloud/agones-sdk', '@kubernetes/client-node'])
      assert.ok(existsSync(join(app, 'node_modules', prod, 'package.json')), `${prod} is installed`);
    // The workspaces the api and the engine import resolve to their sources; tests and web sources are gone.
    assert.ok(existsSync(join(app, 'node_modules/@canopy/engine/src/main.ts')));
    for (const gone of ['apps/api/test', 'packages/engine/test', 'apps/web/src', 'tests', 'bench'])
      assert.equal(existsSync(join(app, gone)), false, `${gone} is not in the image`);
  });

  test('the api starts from the layout with the image environment and answers its probes and the web app', async () => {
    const data = join(root, 'data');
    // The image's ENV, with what a test machine must change: a free port, its own data directory, no fixed
    // gateway ports; production needs a Discord application id, and the gateway an address.
    const env = cleanEnv(path, {
      ...dockerfileEnv(),
      PORT: '0',
      CANOPY_DATA_DIR: data,
      CANOPY_GATEWAY_TLS_PORT: '0',
      CANOPY_GATEWAY_UDP_PORT: '0',
      CANOPY_PUBLIC_IP: '127.0.0.1',
      DISCORD_CLIENT_ID: '123456789012345678',
      DATABASE_URL: '',
    });
    assert.equal(env.NODE_ENV, 'production');
    const { child, output, exited } = spawnInLayout('node', ['apps/api/src/main.ts'], app, env);
    const filesBefore = new Set(readdirSync(app, { recursive: true, encoding: 'utf8' }));
    try {
      const started = await startLine({ child, output }, 120_000);
      assert.ok(started.url, `the api exited with ${started.code}:\n${output()}`);
      const base = started.url.replace('localhost', '127.0.0.1');

      const alive = await fetch(`${base}/healthz`);
      assert.equal(alive.status, 200);
      assert.deepEqual(await alive.json(), { status: 'ok' });

      // Ready once the database is migrated and the runtime driver has booted; a 503 says why not.
      let last = '';
      const ready = await untilValue(async () => {
        const res = await fetch(`${base}/readyz`);
        last = `${res.status} ${await res.text()}`;
        return res.status === 200 ? (JSON.parse(last.slice(4)) as { status: string }) : undefined;
      }, '/readyz 200').catch((error: Error) => assert.fail(`${error.message}; last answer: ${last}\n${output()}`));
      assert.equal(ready.status, 'ready');

      const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.equal(html, readFileSync(join(app, 'apps/web/dist/index.html'), 'utf8'));
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      assert.ok(script, 'index.html loads a script from /assets');
      const asset = await fetch(`${base}${script}`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('content-type') ?? '', /javascript/);
      assert.equal(await asset.text(), readFileSync(join(app, 'apps/web/dist', script), 'utf8'));

      assert.ok(existsSync(join(data, 'canopy.db')), 'the database is in the data directory');

      // The HEALTHCHECK's and compose's command, as the container runs it: in /app with the image's environment.
      const port = new URL(base).port;
      for (const probe of ['/healthz', '/readyz']) {
        const check = await healthcheck(app, { ...env, PORT: port }, probe);
        assert.equal(check.code, 0, check.output);
        assert.match(check.output, new RegExp(`^${probe}: 200 `));
      }
    } finally {
      child.kill('SIGTERM');
    }
    // The image's stop: SIGTERM and an ordered shutdown that ends the process on its own.
    assert.equal(await exited, 0, output());
    const down = await healthcheck(app, { ...env, PORT: '1' }, '/healthz');
    assert.equal(down.code, 1, 'no answer is unhealthy');
    // The image's code is root's and read-only for its user: the api wrote nothing beside it.
    assert.deepEqual(
      readdirSync(app, { recursive: true, encoding: 'utf8' }).filter((f) => !filesBefore.has(f)),
      [],
    );
  });

  test("an engine runs from the layout as the kubernetes driver's pods run it, every module it loads included", async () => {
    const settings = { namespace: 'canopy', image: 'canopy', workDir: '/app', controlPort: 8081, gamePort: 7777 };
    const spec = { id: 'srv1', name: 'Image', ownerId: 'u1', gamePort: 0, secret: 's', lastCrashAt: null };
    const manifest = gameServerManifest({ ...settings, volumeSize: '1Gi', stopGraceSeconds: 15 }, spec, {
      memoryMB: 256,
      env: {},
    });
    const container = manifest.spec.template.spec?.containers[0];
    assert.ok(container?.command && container.args);
    assert.equal(container.workingDir, '/app');
    const [command = '', ...flags] = container.command;
    // The pod's arguments with what this machine changes: a data directory of its own and free ports.
    const args = container.args.map((arg, i, all) => {
      if (all[i - 1] === '--data-dir') return join(root, 'engine-data', 'server');
      return all[i - 1] === '--control-port' || all[i - 1] === '--game-port' ? '0' : arg;
    });
    const env = cleanEnv(path, {
      ...dockerfileEnv(),
      ...Object.fromEntries((container.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]]))),
      [engineEnv.secret]: 'image-test-secret-0123456789',
      NODE_COMPILE_CACHE: join(root, 'compile-cache'),
    });

    // Loads every module an engine may load (the file API, the Agones SDK) and exits: a missing one fails here.
    await run(command, [...flags, '--warm-compile-cache'], { cwd: app, env });

    const engine = spawnInLayout(command, [...flags, ...args], app, env);
    try {
      const ready = await untilValue(
        () =>
          engine
            .output()
            .split('\n')
            .map((line) => ENGINE_READY_MESSAGE.exec(ENGINE_LOG_LINE.exec(line)?.[3] ?? ''))
            .find(Boolean) ?? undefined,
        'the engine READY line',
        60_000,
      ).catch((error: Error) => assert.fail(`${error.message}:\n${engine.output()}`));
      // Its control API listens beyond loopback (the pod's network) and answers the secret from its Secret.
      assert.equal(ready[1], '0.0.0.0');
      const stats = await fetch(`http://127.0.0.1:${ready[2]}/stats`, {
        headers: { authorization: `Bearer ${env[engineEnv.secret]}` },
      });
      assert.equal(stats.status, 200, await stats.text());
    } finally {
      engine.child.kill('SIGTERM');
    }
    assert.equal(await engine.exited, 0, engine.output());
  });
});
