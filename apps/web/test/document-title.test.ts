import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webRoutes } from '@canopy/contract';
import { documentTitle } from '../src/app/document-title.ts';

describe('documentTitle', () => {
  it('names the page from the route table', () => {
    assert.equal(documentTitle('/dashboard'), 'Dashboard · Canopy');
    assert.equal(documentTitle('/worlds'), 'World Manager · Canopy');
    assert.equal(documentTitle('/players/'), 'Player Database · Canopy');
  });

  it('gives every route its own title, and the login and unknown pages theirs', () => {
    const titles = new Set(webRoutes.map((r) => documentTitle(r.path)));
    assert.equal(titles.size, webRoutes.length);
    assert.ok(![...titles].includes('Canopy'));
    assert.equal(documentTitle('/'), 'Sign in · Canopy');
    assert.equal(documentTitle('/no-such-page'), 'Page not found · Canopy');
  });
});
