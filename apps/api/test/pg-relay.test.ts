import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { envelopes } from '../src/events/pg-relay.ts';

it('splits a notice whose audience would pass NOTIFY’s 8000 bytes, keeping every member once', () => {
  const audience = Array.from({ length: 600 }, () => randomUUID());
  const notice = { name: 'big', kind: 'deleted', audience };
  const payloads = envelopes('r1', 'notice', notice);
  assert.ok(payloads.length > 1);
  for (const p of payloads) assert.ok(Buffer.byteLength(p) < 8000);
  const parsed = payloads.map((p) => JSON.parse(p));
  assert.deepEqual(
    parsed.flatMap((e) => e.p.audience),
    audience,
  );
  for (const e of parsed) assert.deepEqual([e.r, e.e, e.p.name, e.p.kind], ['r1', 'notice', 'big', 'deleted']);
  assert.equal(envelopes('r1', 'account', { userId: 'u', kind: 'banned' }).length, 1);
});
