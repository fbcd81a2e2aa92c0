import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '@canopy/contract';
import { loginErrorText } from '../src/features/auth/login-error.ts';

describe('loginErrorText', () => {
  it("shows the login call's own failure texts once, exactly as the spec writes them", () => {
    const invalid = messages.loginFailedInvalidResponse(502);
    assert.equal(loginErrorText(invalid), invalid);
    assert.equal(
      loginErrorText(invalid),
      'Login failed. The server returned an invalid response (status: 502). Please try again later.',
    );
    assert.equal(loginErrorText(messages.loginFailed('Bad Gateway')), 'Login failed: Bad Gateway');
    assert.doesNotMatch(loginErrorText(invalid), /login failed.*login failed/i);
  });

  it("prefixes any other reason with 'Login Failed: '", () => {
    assert.equal(loginErrorText(messages.discordTokenInvalid), `Login Failed: ${messages.discordTokenInvalid}`);
    assert.equal(
      loginErrorText('The resource owner or authorization server denied the request'),
      'Login Failed: The resource owner or authorization server denied the request',
    );
  });
});
