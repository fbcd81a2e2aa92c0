import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CDN_HOST_PATTERN, CDN_PATH_PATTERN, engineEnv } from '@canopy/contract/engine-constants';
import { loadConfig } from '../src/config.ts';

const GAME_CDN = { CANOPY_GAME_CDN_HOST: 'ubistatic-a.akamaihd.net', CANOPY_GAME_CDN_PATH: '0098/150726456789/cache/' };

describe('configuration: the game CDN named to clients (CANOPY_GAME_CDN_HOST/PATH)', () => {
  it('are the variables the engines read (passed through by engine-process.ts)', () => {
    assert.equal(engineEnv.cdnHost, 'CANOPY_GAME_CDN_HOST');
    assert.equal(engineEnv.cdnPath, 'CANOPY_GAME_CDN_PATH');
  });

  it('is unset by default, and when both are empty: engines then name the game CDN themselves', () => {
    assert.equal(loadConfig({}).gameCdn, undefined);
    assert.equal(loadConfig({ CANOPY_GAME_CDN_HOST: '', CANOPY_GAME_CDN_PATH: '' }).gameCdn, undefined);
  });

  it('reads a host and a cache path given together, as they are', () => {
    assert.deepEqual(loadConfig(GAME_CDN).gameCdn, {
      host: 'ubistatic-a.akamaihd.net',
      path: '0098/150726456789/cache/',
    });
    assert.deepEqual(
      loadConfig({ CANOPY_GAME_CDN_HOST: 'cdn.example.com', CANOPY_GAME_CDN_PATH: 'game/cache/' }).gameCdn,
      { host: 'cdn.example.com', path: 'game/cache/' },
    );
  });

  it('refuses one without the other, naming the missing one', () => {
    assert.throws(
      () => loadConfig({ CANOPY_GAME_CDN_HOST: 'cdn.example.com' }),
      /CANOPY_GAME_CDN_PATH: CANOPY_GAME_CDN_HOST and CANOPY_GAME_CDN_PATH are set together or not at all/,
    );
    assert.throws(
      () => loadConfig({ CANOPY_GAME_CDN_PATH: 'game/cache/' }),
      /CANOPY_GAME_CDN_HOST: CANOPY_GAME_CDN_HOST and CANOPY_GAME_CDN_PATH are set together or not at all/,
    );
    assert.throws(
      () => loadConfig({ CANOPY_GAME_CDN_HOST: '', CANOPY_GAME_CDN_PATH: 'game/cache/' }),
      /CANOPY_GAME_CDN_HOST: .*set together/,
    );
  });

  it('refuses a host with a scheme, a port, a path or spaces, as the engines would', () => {
    for (const bad of [
      'https://cdn.example.com',
      'cdn.example.com:443',
      'cdn.example.com/cache',
      ' cdn.example.com',
      'cdn example.com',
      'cdn_example.com',
      'a'.repeat(254),
    ]) {
      assert.ok(!CDN_HOST_PATTERN.test(bad), `the contract's pattern refuses ${bad}`);
      assert.throws(
        () => loadConfig({ ...GAME_CDN, CANOPY_GAME_CDN_HOST: bad }),
        /CANOPY_GAME_CDN_HOST: must be a host name without scheme, port or path/,
        bad,
      );
    }
  });

  it('refuses a path that does not end in / or holds characters a client URL cannot', () => {
    for (const bad of ['0098/150726456789/cache', 'game cache/', 'cache/?x=1/', 'cache\\', `${'a'.repeat(201)}/`]) {
      assert.ok(!CDN_PATH_PATTERN.test(bad), `the contract's pattern refuses ${bad}`);
      assert.throws(
        () => loadConfig({ ...GAME_CDN, CANOPY_GAME_CDN_PATH: bad }),
        /CANOPY_GAME_CDN_PATH: must be a cache path ending in \//,
        bad,
      );
    }
  });

  it('stops the api at start with the message and exit status 1', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'canopy-cdn-config-'));
    try {
      const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
      const run = spawnSync(process.execPath, [main], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          CANOPY_DATA_DIR: dataDir,
          PORT: '0',
          CANOPY_GAME_CDN_HOST: 'https://cdn.example.com',
          CANOPY_GAME_CDN_PATH: 'cache/',
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /Invalid configuration:\n.*CANOPY_GAME_CDN_HOST: must be a host name/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
