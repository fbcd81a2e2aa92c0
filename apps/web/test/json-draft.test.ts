import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultWorldMeta, serverPageMessages, worldPutSchema } from '@canopy/contract';
import {
  asArray,
  asNumberText,
  asText,
  checkDocument,
  describeIssue,
  fromNumberText,
  parseJsonObject,
  saveBlockReason,
  toEditableJson,
} from '../src/lib/json-draft.ts';

describe('parseJsonObject (Raw JSON tab)', () => {
  it('accepts a JSON object', () => {
    assert.deepEqual(parseJsonObject('{"owner":"Bob","admins":[]}'), { ok: true, value: { owner: 'Bob', admins: [] } });
  });

  it("answers 'Invalid JSON format.' for broken text and for JSON that is not an object", () => {
    for (const text of ['{"owner":', '', 'not json', '[1,2]', 'null', '42', '"text"'])
      assert.deepEqual(parseJsonObject(text), { ok: false, error: serverPageMessages.invalidJson }, text);
  });
});

describe('saveBlockReason', () => {
  it("blocks saving with 'Cannot save, JSON is invalid.' only on the Raw JSON tab with invalid text", () => {
    assert.equal(saveBlockReason(true, serverPageMessages.invalidJson), serverPageMessages.cannotSaveInvalidJson);
    assert.equal(saveBlockReason(true, null), null);
    assert.equal(saveBlockReason(false, serverPageMessages.invalidJson), null);
  });
});

describe('toEditableJson', () => {
  it('round-trips and puts each element of an array of objects or pairs on one line', () => {
    const doc = {
      owner: 'Bob',
      admins: ['a', 'b'],
      blocks: [
        { fg: 2, bg: 14 },
        { fg: 0, bg: 14 },
      ],
      inventory: [
        [2, 10],
        [18, 1],
      ],
      empty: [],
      nested: { x: 1 },
    };
    const text = toEditableJson(doc);
    assert.deepEqual(JSON.parse(text), doc);
    const lines = text.split('\n');
    assert.ok(lines.includes('  "admins": ["a","b"],'));
    assert.ok(lines.includes('    {"fg":2,"bg":14},'));
    assert.ok(lines.includes('    [18,1]'));
    assert.ok(lines.includes('  "empty": [],'));
  });

  it('leaves undefined fields out', () => {
    assert.deepEqual(JSON.parse(toEditableJson({ a: 1, b: undefined })), { a: 1 });
  });
});

describe('checkDocument', () => {
  const world = {
    name: 'START',
    id: 1,
    ...defaultWorldMeta(1, 1),
    blocks: [{ fg: 0, bg: 0, o: 0, l: 0, fl: 0, if_c: 0 }],
  };

  it('gives the parsed body of a valid document', () => {
    const check = checkDocument(worldPutSchema, world);
    assert.equal(check.ok, true);
  });

  it('gives the first problem, named by its field, and one message per field', () => {
    const check = checkDocument(worldPutSchema, { ...world, entry_level: Number.NaN, owner: 'x y' });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(check.fieldErrors.entry_level, 'entry_level must be a number.');
    assert.match(check.fieldErrors.owner ?? '', /^owner must be a GrowID/);
    assert.equal(check.message, check.fieldErrors.entry_level, 'the first field in draft order');
  });

  it('names the path of a problem the message does not name', () => {
    const check = checkDocument(worldPutSchema, { ...world, music_bpm: 0 });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.match(check.message, /^music_bpm: /);
  });

  it('describeIssue prefixes the path unless the message already names the field', () => {
    assert.equal(
      describeIssue({ path: ['admins', 2], message: 'Duplicate admin "a".' }),
      'admins.2: Duplicate admin "a".',
    );
    assert.equal(describeIssue({ path: ['owner'], message: 'owner must be x' }), 'owner must be x');
    assert.equal(describeIssue({ path: [], message: 'whole' }), 'whole');
  });
});

describe('draft readers', () => {
  it('show any value in inputs and write NaN for a blank number', () => {
    assert.equal(asText(undefined), '');
    assert.equal(asText(5), '5');
    assert.equal(asNumberText(Number.NaN), '');
    assert.equal(asNumberText('7'), '');
    assert.equal(asNumberText(7), '7');
    assert.ok(Number.isNaN(fromNumberText(' ')));
    assert.equal(fromNumberText('12'), 12);
    assert.deepEqual(asArray('x'), []);
  });
});
