import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultWorldMeta, playerPutSchema, serverPageMessages, worldPutSchema } from '@canopy/contract';
import {
  asArray,
  asNumberText,
  asText,
  checkDocument,
  describeIssue,
  firstErrorTab,
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

  it('gives the first problem in the words of the form, and one message per field', () => {
    const check = checkDocument(worldPutSchema, { ...world, entry_level: Number.NaN, owner: 'x y' });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(check.fieldErrors.entry_level, 'Entry Level must be a whole number.');
    assert.match(check.fieldErrors.owner ?? '', /^Owner must be a GrowID/);
    assert.equal(check.message, check.fieldErrors.owner, 'the first field in draft order');
  });

  it('says what is wrong with a colour as a sentence, not as validator text', () => {
    const check = checkDocument(worldPutSchema, { ...world, r: 300, g: -1, music_bpm: 0 });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(check.fieldErrors.r, 'Red must be between 0 and 255.');
    assert.equal(check.fieldErrors.g, 'Green must be between 0 and 255.');
    assert.equal(check.fieldErrors.music_bpm, 'Music BPM must be between 1 and 1000.');
  });

  it('names the entry of a list that holds the problem', () => {
    const check = checkDocument(worldPutSchema, { ...world, blocks: [{ ...world.blocks[0], o: 2 }] });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(check.fieldErrors.blocks, 'Tile 1: o must be 0 or 1.');
  });

  it('gives player fields human messages too', () => {
    const player = {
      pass: '',
      email: '',
      home_world: '',
      level: 1,
      gems: 0,
      xp: 0,
      wl_bank_amount: 0,
      dl_bank_amount: 0,
      inventory: [[2, 201]],
    };
    const check = checkDocument(playerPutSchema, { ...player, level: 0, 'Role.VIP': 'yes' });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(check.fieldErrors.level, 'Level must be between 1 and 1000.');
    assert.equal(check.fieldErrors.inventory, 'Inventory entry 1: Item count must be between 1 and 200.');
    assert.equal(check.fieldErrors['Role.VIP'], 'Roles and titles must be true or false.');
  });

  it('describeIssue keeps sentences, names list entries and prefixes zod wording with the path', () => {
    assert.equal(
      describeIssue({ path: ['admins', 2], message: 'Duplicate admin "a".' }),
      'Admin 3: Duplicate admin "a".',
    );
    assert.equal(describeIssue({ path: ['owner'], message: 'Owner must be x' }), 'Owner must be x');
    assert.equal(describeIssue({ path: ['misc'], message: 'Too big: expected x' }), 'misc: Too big: expected x');
    assert.equal(describeIssue({ path: ['blocks', 0, 'q'], message: 'Invalid input' }), 'blocks.0.q: Invalid input');
    assert.equal(describeIssue({ path: [], message: 'whole' }), 'whole');
  });
});

describe('firstErrorTab', () => {
  const tabs = [
    { id: 'general', fields: ['owner', 'entry_level'] },
    { id: 'appearance', fields: ['r', 'g', 'b'] },
    { id: 'flags', fields: (key: string) => key.startsWith('Role.') },
  ] as const;

  it('opens the first tab, in tab order, that shows a field with a problem', () => {
    const first = firstErrorTab(tabs, { r: 'Red must be between 0 and 255.', owner: 'Owner must be x' }, 'raw');
    assert.deepEqual(first, { tab: 'general', field: 'owner', message: 'Owner must be x' });
    assert.equal(firstErrorTab(tabs, { b: 'Blue must be between 0 and 255.' }, 'raw')?.tab, 'appearance');
    assert.equal(firstErrorTab(tabs, { 'Role.VIP': 'no' }, 'raw')?.tab, 'flags');
  });

  it('opens the Raw JSON tab for a problem no form tab shows, and nothing without problems', () => {
    assert.equal(firstErrorTab(tabs, { '': 'Unrecognized key: "x"' }, 'raw')?.tab, 'raw');
    assert.equal(firstErrorTab(tabs, {}, 'raw'), null);
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
