import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ASSISTANT_HISTORY_MAX,
  ASSISTANT_HISTORY_TEXT_MAX,
  assistantMessages,
  type ChatMessage,
  chatRequestSchema,
} from '@canopy/contract';
import {
  clearHistories,
  type HistoryStorage,
  historyKey,
  readHistory,
  requestHistory,
  STORED_MESSAGES_MAX,
  writeHistory,
} from '../src/features/assistant/history.ts';

/** Web Storage over a Map. */
function memoryStorage(): HistoryStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
  };
}

const turn = (i: number): ChatMessage[] => [
  { role: 'user', text: `question ${i}` },
  { role: 'model', text: `answer ${i}` },
];

describe('SkyHelper history in session storage', () => {
  test('is kept per user and read back', () => {
    const s = memoryStorage();
    writeHistory(s, 'alice', turn(1));
    writeHistory(s, 'bob', turn(2));
    assert.deepEqual(readHistory(s, 'alice'), turn(1));
    assert.deepEqual(readHistory(s, 'bob'), turn(2));
    assert.deepEqual(readHistory(s, 'carol'), []);
  });

  test('keeps only the newest messages', () => {
    const s = memoryStorage();
    const many = Array.from({ length: STORED_MESSAGES_MAX }, (_, i) => turn(i)).flat();
    writeHistory(s, 'alice', many);
    const kept = readHistory(s, 'alice');
    assert.equal(kept.length, STORED_MESSAGES_MAX);
    assert.deepEqual(kept.at(-1), many.at(-1));
  });

  test('an unreadable or malformed entry is an empty chat, and malformed messages are dropped', () => {
    const s = memoryStorage();
    s.setItem(historyKey('alice'), '{not json');
    assert.deepEqual(readHistory(s, 'alice'), []);
    s.setItem(historyKey('alice'), JSON.stringify({ role: 'user' }));
    assert.deepEqual(readHistory(s, 'alice'), []);
    s.setItem(historyKey('alice'), JSON.stringify([{ role: 'system', text: 'x' }, { role: 'user', text: 'ok' }, null]));
    assert.deepEqual(readHistory(s, 'alice'), [{ role: 'user', text: 'ok' }]);
  });

  test('a full storage loses the history without throwing', () => {
    const s = memoryStorage();
    s.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    assert.doesNotThrow(() => writeHistory(s, 'alice', turn(1)));
  });

  test('logout clears every chat and nothing else', () => {
    const s = memoryStorage();
    writeHistory(s, 'alice', turn(1));
    writeHistory(s, 'bob', turn(2));
    s.setItem('other-key', 'kept');
    clearHistories(s);
    assert.deepEqual([...s.map.keys()], ['other-key']);
  });
});

describe('the history sent with a question', () => {
  test('is the last ASSISTANT_HISTORY_MAX messages, starting with a question, within the api bounds', () => {
    const many = Array.from({ length: 30 }, (_, i) => turn(i)).flat();
    const sent = requestHistory(many);
    assert.equal(sent.length, ASSISTANT_HISTORY_MAX);
    assert.deepEqual(sent.at(-1), { role: 'model', text: 'answer 29' });
    assert.equal(sent[0]?.role, 'user');
    assert.ok(chatRequestSchema.safeParse({ history: sent, message: 'next' }).success);
  });

  test('clips long answers and drops the error lines the panel appended', () => {
    const long = 'x'.repeat(ASSISTANT_HISTORY_TEXT_MAX + 500);
    const sent = requestHistory([
      { role: 'user', text: 'q1' },
      { role: 'model', text: long },
      { role: 'user', text: 'q2' },
      { role: 'model', text: assistantMessages.errorLine },
    ]);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'model', 'user'],
    );
    assert.equal(sent[1]?.text.length, ASSISTANT_HISTORY_TEXT_MAX);
    assert.ok(chatRequestSchema.safeParse({ history: sent, message: 'next' }).success);
  });

  test('a window that would start with an answer starts at the next question', () => {
    const sent = requestHistory([{ role: 'model', text: 'orphan' }, ...turn(1)]);
    assert.deepEqual(sent, turn(1));
    assert.deepEqual(requestHistory([]), []);
  });
});
