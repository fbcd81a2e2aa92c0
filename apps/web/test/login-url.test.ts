import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAuthorizeUrl, readAuthFragment, safeRedirectTarget } from '../src/features/auth/login-url.ts';
import { ownedServerEntry } from '../src/lib/owned-server.ts';

describe('readAuthFragment', () => {
  it('reads an access token', () => {
    assert.deepEqual(readAuthFragment('#token_type=Bearer&access_token=abc&expires_in=604800&scope=identify'), {
      kind: 'token',
      accessToken: 'abc',
    });
  });
  it('decodes an error description', () => {
    assert.deepEqual(readAuthFragment('#error=access_denied&error_description=The+user%20denied%20%26%20left'), {
      kind: 'error',
      description: 'The user denied & left',
    });
  });
  it('finds nothing in an empty fragment', () => {
    assert.deepEqual(readAuthFragment(''), { kind: 'none' });
    assert.deepEqual(readAuthFragment('#'), { kind: 'none' });
  });
});

describe('buildAuthorizeUrl', () => {
  it('builds the implicit-grant link', () => {
    const url = buildAuthorizeUrl(
      {
        authorizeUrl: 'https://discord.com/oauth2/authorize',
        clientId: '123',
        scopes: ['identify', 'email'],
        devProvider: false,
      },
      'https://panel.example',
    );
    assert.equal(
      url,
      'https://discord.com/oauth2/authorize?client_id=123&response_type=token&redirect_uri=https%3A%2F%2Fpanel.example&scope=identify%20email',
    );
  });
  it('appends to an authorize url that already has a query', () => {
    const url = buildAuthorizeUrl(
      { authorizeUrl: '/dev?x=1', clientId: 'c', scopes: ['identify'], devProvider: true },
      'http://a',
    );
    assert.ok(url.startsWith('/dev?x=1&client_id=c&'));
  });
});

describe('safeRedirectTarget', () => {
  it('keeps same-site paths only', () => {
    assert.equal(safeRedirectTarget('/profile?tab=1'), '/profile?tab=1');
    assert.equal(safeRedirectTarget('//evil.example'), null);
    assert.equal(safeRedirectTarget('/\\evil.example'), null);
    assert.equal(safeRedirectTarget('https://evil.example'), null);
    assert.equal(safeRedirectTarget('/'), null);
    assert.equal(safeRedirectTarget(null), null);
  });
});

describe('ownedServerEntry', () => {
  const feed = [{ name: 'Alpha', status: 'ONLINE' as const, players: 3, version: '1.0' }];
  it('finds the owned server in the feed', () => {
    assert.deepEqual(ownedServerEntry(feed, 'Alpha'), feed[0]);
  });
  it('shows a missing server as OFFLINE', () => {
    assert.deepEqual(ownedServerEntry(feed, 'Beta'), { name: 'Beta', status: 'OFFLINE', players: 0, version: 'N/A' });
  });
  it('is null without a server', () => {
    assert.equal(ownedServerEntry(feed, 'No Server'), null);
  });
});
