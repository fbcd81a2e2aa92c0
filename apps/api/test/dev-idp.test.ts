import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startApi, type TestApi } from './support/harness.ts';

/** A GET whose Host header is the address a browser used (fetch cannot set Host); redirects are not followed. */
function get(api: TestApi, path: string, host: string): Promise<{ status: number; location: string; text: string }> {
  const url = new URL(path, api.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? '', text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const query = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

// The development stand-in for Discord's authorize page (issue 21 items 10-11). It touches no database, so one
// dialect is enough.
describe('development sign-in: the return to the panel', () => {
  let api: TestApi;
  before(async () => {
    // Without DISCORD_API_URL the api checks tokens at the stand-in itself, as in development.
    api = await startApi('sqlite', { DISCORD_API_URL: '' });
  });
  after(() => api.close());

  it('returns to the address the panel was opened at, echoing state with the token', async () => {
    const host = `panel.canopy.test:${new URL(api.url).port}`;
    const redirect = `http://${host}/`;
    const page = await get(
      api,
      `/dev-discord/oauth2/authorize${query({ response_type: 'token', redirect_uri: redirect, state: 'st-123', scope: 'identify email' })}`,
      host,
    );
    assert.equal(page.status, 200);
    assert.match(page.text, /name="state" value="st-123"/);

    const approve = await get(
      api,
      `/dev-discord/oauth2/approve${query({ username: 'roamer', redirect_uri: redirect, state: 'st-123' })}`,
      host,
    );
    assert.equal(approve.status, 302);
    const back = new URL(approve.location);
    assert.equal(back.origin, `http://${host}`);
    const fragment = new URLSearchParams(back.hash.slice(1));
    assert.equal(fragment.get('state'), 'st-123', 'state comes back unchanged, as Discord returns it');
    const login = await api.request('POST', '/auth/login', { body: { accessToken: fragment.get('access_token') } });
    assert.equal(login.status, 200);
    assert.equal(login.body.user.username, 'roamer');
  });

  it('echoes state on a refusal too', async () => {
    const host = `panel.canopy.test:${new URL(api.url).port}`;
    const deny = await get(
      api,
      `/dev-discord/oauth2/approve${query({ deny: '1', redirect_uri: `http://${host}/`, state: 'st-9' })}`,
      host,
    );
    const fragment = new URLSearchParams(new URL(deny.location).hash.slice(1));
    assert.equal(fragment.get('error'), 'access_denied');
    assert.equal(fragment.get('state'), 'st-9');
    assert.equal(fragment.get('access_token'), null);
  });

  it('never sends a token to another site', async () => {
    const host = `panel.canopy.test:${new URL(api.url).port}`;
    for (const redirect of ['http://evil.example/', `http://evil.example:${new URL(api.url).port}/`, 'ftp://panel/']) {
      const approve = await get(
        api,
        `/dev-discord/oauth2/approve${query({ username: 'victim', redirect_uri: redirect, state: 's' })}`,
        host,
      );
      assert.equal(approve.status, 400, redirect);
      assert.equal(approve.location, '');
      assert.match(approve.text, /redirect_uri must point at this panel/);
    }
  });
});
