import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newLoginState, rememberLoginState, takeLoginState } from '../src/features/auth/login-state.ts';
import { buildAuthorizeUrl, readAuthFragment, safeRedirectTarget } from '../src/features/auth/login-url.ts';
import { ownedServerEntry } from '../src/lib/owned-server.ts';

describe('readAuthFragment', () => {
  it('reads an access token', () => {
    assert.deepEqual(readAuthFragment('#token_type=Bearer&access_token=abc&expires_in=604800&scope=identify'), {
      kind: 'token',
      accessToken: 'abc',
      state: null,
    });
  });
  it('reads the state the provider echoed, with a token or an error', () => {
    assert.deepEqual(readAuthFragment('#access_token=abc&state=s%2B1'), {
      kind: 'token',
      accessToken: 'abc',
      state: 's+1',
    });
    assert.deepEqual(readAuthFragment('#error=access_denied&state=s1'), {
      kind: 'error',
      description: 'access_denied',
      state: 's1',
    });
  });
  it('decodes an error description', () => {
    assert.deepEqual(readAuthFragment('#error=access_denied&error_description=The+user%20denied%20%26%20left'), {
      kind: 'error',
      description: 'The user denied & left',
      state: null,
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
      'ab12',
    );
    assert.equal(
      url,
      'https://discord.com/oauth2/authorize?client_id=123&response_type=token&redirect_uri=https%3A%2F%2Fpanel.example&scope=identify%20email&state=ab12',
    );
  });
  it('appends to an authorize url that already has a query', () => {
    const url = buildAuthorizeUrl(
      { authorizeUrl: '/dev?x=1', clientId: 'c', scopes: ['identify'], devProvider: true },
      'http://a',
      's',
    );
    assert.ok(url.startsWith('/dev?x=1&client_id=c&'));
  });
});

describe('login state (login CSRF)', () => {
  const memory = () => {
    const map = new Map<string, string>();
    return {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
  };

  it('is random per attempt', () => {
    const random = (b: Uint8Array<ArrayBuffer>) => crypto.getRandomValues(b);
    const a = newLoginState(random);
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.notEqual(newLoginState(random), a);
  });

  it('accepts the return of the sign-in this tab started, once', () => {
    const tab = memory();
    rememberLoginState(tab, 'abc');
    assert.equal(takeLoginState(tab, 'abc'), true);
    assert.equal(takeLoginState(tab, 'abc'), false, 'a replayed return is refused');
  });

  it('refuses a return with another state, without one, or that this tab never started', () => {
    const tab = memory();
    rememberLoginState(tab, 'abc');
    assert.equal(takeLoginState(tab, 'wrong'), false);
    assert.equal(takeLoginState(tab, 'abc'), false, 'a refused attempt is used up');
    rememberLoginState(tab, 'abc');
    assert.equal(takeLoginState(tab, null), false);
    assert.equal(takeLoginState(memory(), 'abc'), false);
    assert.equal(takeLoginState(memory(), null), false);
    const empty = memory();
    rememberLoginState(empty, '');
    assert.equal(takeLoginState(empty, ''), false);
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
