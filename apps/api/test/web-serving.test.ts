import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApi, type TestApi } from './support/harness.ts';

describe('web app and api on one origin', () => {
  let api: TestApi;
  before(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'canopy-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    api = await startApi('sqlite', { CANOPY_WEB_DIST: dist });
  });
  after(() => api.close());

  const html = (path: string) => fetch(api.url + path, { headers: { accept: 'text/html,*/*' } });

  it('serves the app for browser navigations to pages, 404 status for unknown pages', async () => {
    for (const page of ['/', '/dashboard', '/items', '/admin']) {
      const res = await html(page);
      assert.equal(res.status, 200, page);
      assert.match(await res.text(), /id="root"/);
    }
    const unknown = await html('/no-such-page');
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /id="root"/, 'the app draws the not-found page');
  });

  it('serves built assets and leaves api calls to the api', async () => {
    const asset = await fetch(`${api.url}/assets/app.js`);
    assert.equal(asset.status, 200);
    const status = await fetch(`${api.url}/status`);
    assert.deepEqual(await status.json(), { hostedServers: [] });
    const missing = await fetch(`${api.url}/nothing-here`);
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error, /No route/);
  });

  it('answers malformed JSON with a precise 400 and accepts an empty JSON body', async () => {
    const bad = await fetch(`${api.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"accessToken":',
    });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error, 'Request body is not valid JSON.');
    const empty = await fetch(`${api.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(empty.status, 400);
    assert.equal((await empty.json()).error, 'Request body is required.');
  });
});
