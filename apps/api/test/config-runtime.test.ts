import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';

// CANOPY_RUNTIME and the kubernetes runtime's variables (config/runtime.ts, ADR 0043).

const kubernetes = {
  CANOPY_RUNTIME: 'kubernetes',
  CANOPY_K8S_ENGINE_IMAGE: 'registry.example/canopy-engine:1.2',
  CANOPY_CONTROL_KEY: 'k'.repeat(32),
};

describe('runtime configuration', () => {
  it('runs engines on this machine unless told otherwise', () => {
    assert.deepEqual(loadConfig({}).runtime, { kind: 'local' });
    assert.equal(loadConfig({}).controlKey, undefined);
  });

  it('reads the kubernetes runtime with its defaults', () => {
    const c = loadConfig(kubernetes);
    assert.deepEqual(c.runtime, {
      kind: 'kubernetes',
      namespace: undefined,
      image: 'registry.example/canopy-engine:1.2',
      workDir: '/app',
      volumeSize: '1Gi',
      storageClass: undefined,
      controlPort: 8081,
      gamePort: 7777,
      startTimeoutMs: 180_000,
    });
    assert.equal(c.controlKey, 'k'.repeat(32));
    const set = loadConfig({
      ...kubernetes,
      CANOPY_K8S_NAMESPACE: 'games',
      CANOPY_K8S_VOLUME_SIZE: '500Mi',
      CANOPY_K8S_STORAGE_CLASS: 'fast-ssd',
      CANOPY_K8S_CONTROL_PORT: '9090',
      CANOPY_K8S_ENGINE_WORKDIR: '/srv/canopy',
      CANOPY_K8S_GAME_PORT: '17091',
      CANOPY_K8S_START_TIMEOUT_MS: '60000',
    }).runtime;
    assert.deepEqual(set, {
      kind: 'kubernetes',
      namespace: 'games',
      image: 'registry.example/canopy-engine:1.2',
      workDir: '/srv/canopy',
      volumeSize: '500Mi',
      storageClass: 'fast-ssd',
      controlPort: 9090,
      gamePort: 17091,
      startTimeoutMs: 60_000,
    });
  });

  it('refuses a kubernetes runtime without an image or a shared control key, and bad values, by name', () => {
    assert.throws(
      () => loadConfig({ ...kubernetes, CANOPY_K8S_ENGINE_IMAGE: '' }),
      /CANOPY_K8S_ENGINE_IMAGE: is required when CANOPY_RUNTIME=kubernetes/,
    );
    assert.throws(
      () => loadConfig({ ...kubernetes, CANOPY_CONTROL_KEY: '' }),
      /CANOPY_CONTROL_KEY: is required when CANOPY_RUNTIME=kubernetes/,
    );
    assert.throws(() => loadConfig({ CANOPY_CONTROL_KEY: 'short' }), /CANOPY_CONTROL_KEY: must be at least 32/);
    assert.throws(() => loadConfig({ CANOPY_RUNTIME: 'docker' }), /CANOPY_RUNTIME:/);
    assert.throws(() => loadConfig({ ...kubernetes, CANOPY_K8S_NAMESPACE: 'Games!' }), /CANOPY_K8S_NAMESPACE:/);
    assert.throws(() => loadConfig({ ...kubernetes, CANOPY_K8S_VOLUME_SIZE: 'lots' }), /CANOPY_K8S_VOLUME_SIZE:/);
    assert.throws(
      () => loadConfig({ ...kubernetes, CANOPY_K8S_GAME_PORT: '8081' }),
      /CANOPY_K8S_GAME_PORT: must differ from CANOPY_K8S_CONTROL_PORT/,
    );
    // Agones' sidecar serves its health endpoint on 8080 and the SDK on 9357/9358 in every GameServer pod.
    for (const taken of ['8080', '9357', '9358'])
      assert.throws(
        () => loadConfig({ ...kubernetes, CANOPY_K8S_CONTROL_PORT: taken }),
        /CANOPY_K8S_CONTROL_PORT: must not be 8080, 9357, 9358/,
      );
    assert.throws(() => loadConfig({ ...kubernetes, CANOPY_K8S_ENGINE_WORKDIR: 'app' }), /CANOPY_K8S_ENGINE_WORKDIR:/);
  });
});
