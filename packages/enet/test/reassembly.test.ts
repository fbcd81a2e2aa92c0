// Fragment reassembly and in-order delivery, fed with commands as the parser produces them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParsedCommand } from '../src/protocol.ts';
import { Reassembler } from '../src/reassembly.ts';

const ACK = 0x80;

function fragment(seq: number, start: number, n: number, count: number, data: Buffer, size: number): ParsedCommand {
  const offset = n * size;
  return {
    kind: 'fragment',
    command: 8,
    flags: ACK,
    channelId: 0,
    reliableSequence: seq,
    startSequence: start,
    fragmentCount: count,
    fragmentNumber: n,
    totalLength: data.length,
    fragmentOffset: offset,
    payload: data.subarray(offset, offset + size),
  };
}

function reliable(seq: number, text: string): ParsedCommand {
  return { kind: 'reliable', command: 6, flags: ACK, channelId: 0, reliableSequence: seq, payload: Buffer.from(text) };
}

test('fragments arriving out of order and twice make one packet, delivered in sequence', () => {
  const r = new Reassembler();
  const data = Buffer.from('0123456789abcdefghij');
  const f = [0, 1, 2, 3].map((n) => fragment(2 + n, 2, n, 4, data, 5));
  assert.deepEqual(r.accept(f[2] as ParsedCommand), []);
  assert.deepEqual(r.accept(f[1] as ParsedCommand), []);
  assert.deepEqual(r.accept(f[1] as ParsedCommand), []);
  assert.deepEqual(r.accept(reliable(6, 'after')), []);
  assert.deepEqual(r.accept(f[3] as ParsedCommand), []);
  // Sequence 1 is still missing: nothing may pass it.
  assert.deepEqual(r.accept(f[0] as ParsedCommand), []);
  assert.deepEqual(
    r.accept(reliable(1, 'before')).map((b) => b.toString()),
    ['before', data.toString(), 'after'],
  );
  assert.deepEqual(r.accept(reliable(3, 'old duplicate')), []);
});

test('inconsistent or impossible fragments are dropped without allocating', () => {
  const r = new Reassembler();
  const data = Buffer.from('0123456789');
  const bad: ParsedCommand[] = [
    { ...(fragment(1, 1, 0, 2, data, 5) as Extract<ParsedCommand, { kind: 'fragment' }>), totalLength: 0x7fffffff },
    { ...(fragment(2, 2, 0, 2, data, 5) as Extract<ParsedCommand, { kind: 'fragment' }>), fragmentNumber: 9 },
    { ...(fragment(3, 3, 0, 2, data, 5) as Extract<ParsedCommand, { kind: 'fragment' }>), fragmentOffset: 8 },
  ];
  for (const c of bad) assert.deepEqual(r.accept(c), []);
  assert.deepEqual(
    r.accept(reliable(4, 'fine')).map((b) => b.toString()),
    ['fine'],
  );
});

test('unreliable and unsequenced payloads pass straight through', () => {
  const r = new Reassembler();
  const c: ParsedCommand = {
    kind: 'unsequenced',
    command: 9,
    flags: 0x40,
    channelId: 0,
    reliableSequence: 0,
    payload: Buffer.from('u'),
  };
  assert.deepEqual(r.accept(c), [Buffer.from('u')]);
});

function unreliable(seq: number, u: number, text: string): ParsedCommand {
  return {
    kind: 'unreliable',
    command: 7,
    flags: 0,
    channelId: 0,
    reliableSequence: seq,
    unreliableSequence: u,
    payload: Buffer.from(text),
  };
}

test('unreliable packets pass after the reliable one they follow, newest only; early or stale ones are dropped', () => {
  const r = new Reassembler();
  const texts = (out: Buffer[]) => out.map(String);
  assert.deepEqual(texts(r.accept(unreliable(0, 1, 'a'))), ['a']); // before any reliable one
  assert.deepEqual(texts(r.accept(unreliable(1, 1, 'early'))), []); // reliable 1 not delivered yet
  assert.deepEqual(texts(r.accept(reliable(1, 'r1'))), ['r1']);
  assert.deepEqual(texts(r.accept(unreliable(0, 2, 'stale'))), []); // reliable 1 went through since
  assert.deepEqual(texts(r.accept(unreliable(1, 2, 'b'))), ['b']);
  assert.deepEqual(texts(r.accept(unreliable(1, 1, 'older'))), []);
  assert.deepEqual(texts(r.accept(unreliable(1, 2, 'again'))), []);
  assert.deepEqual(texts(r.accept(unreliable(1, 3, 'c'))), ['c']);
  assert.deepEqual(texts(r.accept(reliable(2, 'r2'))), ['r2']);
  assert.deepEqual(texts(r.accept(unreliable(2, 1, 'd'))), ['d']); // counted again from the new reliable one
});
