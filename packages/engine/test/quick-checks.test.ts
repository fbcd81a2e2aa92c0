import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  creatorListSchema,
  customItemsFileSchema,
  defaultNewbieKit,
  defaultServerConfig,
  engineStateFileSchema,
  newbieKitSchema,
  serverConfigSchema,
} from '@canopy/contract/engine';
import type { z } from 'zod';
import { quickCreators, quickCustomItems, quickNewbieKit, quickServerConfig } from '../src/config/quick-checks.ts';
import { asStateFile } from '../src/state-file.ts';

/**
 * A quick check may leave a valid file to the schema, but what it accepts the schema accepts, with the same
 * value; `usual` are the files it must accept itself (else idle engines load zod again).
 */
function agrees<T>(quick: (json: unknown) => T | undefined, schema: z.ZodType<T>, usual: unknown[], other: unknown[]) {
  for (const json of usual) assert.notEqual(quick(json), undefined, `quick check accepts ${JSON.stringify(json)}`);
  for (const json of [...usual, ...other]) {
    const value = quick(json);
    if (value === undefined) continue;
    const parsed = schema.safeParse(json);
    assert.ok(parsed.success, `the schema accepts ${JSON.stringify(json)} too`);
    assert.deepEqual(value, parsed.data, `the same value for ${JSON.stringify(json)}`);
  }
}

describe('config quick checks (zod-free at start)', () => {
  it('creators.json', () => {
    agrees(
      quickCreators,
      creatorListSchema,
      [[], ['Alice', 'bob123'], Array.from({ length: 1000 }, (_, i) => `user${i}`)],
      [
        [' Alice'],
        ['Alice', 'alice'],
        ['ab'],
        ['a'.repeat(21)],
        ['bad name'],
        [1],
        {},
        null,
        Array.from({ length: 1001 }, (_, i) => `user${i}`),
      ],
    );
  });

  it('server-config.json', () => {
    agrees(
      quickServerConfig,
      serverConfigSchema,
      [defaultServerConfig, {}, { autofarmDelay: 0 }, { autofarmDelay: 2500.5 }, { autofarmDelay: 10, other: 1 }],
      [{ autofarmDelay: -1 }, { autofarmDelay: 3_600_001 }, { autofarmDelay: '5' }, { autofarmDelay: null }, [], 7],
    );
  });

  it('newbie-kit.json', () => {
    agrees(
      quickNewbieKit,
      newbieKitSchema,
      [
        defaultNewbieKit(),
        {},
        { ITEMS: [] },
        {
          ITEMS: [
            {
              Gemss: 100,
              items: [
                [2, 5],
                [18, 1],
              ],
            },
          ],
        },
        { ITEMS: [{ Gemss: 0, Coin: 3, Seasonals_Token: 1, items: [], extra: true }, {}] },
      ],
      [
        { ITEMS: [{ Gemss: -1 }] },
        { ITEMS: [{ Gemss: 1.5 }] },
        { ITEMS: [{ items: [[2, 0]] }] },
        { ITEMS: [{ items: [[70000, 1]] }] },
        { ITEMS: [{ items: [[2, 1, 3]] }] },
        { ITEMS: [{ items: [2] }] },
        { ITEMS: {} },
        { ITEMS: [null] },
        { ITEMS: null },
        { ITEMS: [{ items: null, Coin: null }] },
        // More items than an inventory holds (MAX_INVENTORY_ITEMS).
        { ITEMS: [{ items: Array.from({ length: 501 }, (_, i) => [i, 1]) }] },
        [],
      ],
    );
  });

  it('custom-items.json', () => {
    agrees(
      quickCustomItems,
      customItemsFileSchema,
      [{ items: [] }, {}],
      [{ items: [{ ID: 5000 }] }, { items: 'x' }, { items: null }, [], null],
    );
  });

  it('engine.json', () => {
    const state = {
      pid: 42,
      controlHost: '127.0.0.1',
      controlPort: 4000,
      gamePort: 17091,
      version: '0.1.0',
      startedAt: '2026-11-22T00:00:00.000Z',
    };
    agrees(
      asStateFile,
      engineStateFileSchema,
      [state, { ...state, extra: 1 }],
      [{ ...state, pid: 1.5 }, { ...state, version: 1 }, { ...state, startedAt: undefined }, [], null, 'x'],
    );
    for (const json of [{ ...state, pid: '42' }, { ...state, controlPort: null }, []])
      assert.equal(asStateFile(json), undefined, `refuses ${JSON.stringify(json)}, as the schema does`);
  });
});
