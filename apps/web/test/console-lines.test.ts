import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  appendLines,
  applyPending,
  CONSOLE_MAX_LINES,
  isAtBottom,
  lineLevel,
  queueLines,
  refusalLines,
  toConsoleLines,
} from '../src/features/console/console-lines.ts';

const ts = '2026-11-21T22:40:01.123Z';

describe('lineLevel', () => {
  it('reads the level of engine lines', () => {
    assert.equal(lineLevel(`${ts} [INFO] READY control=127.0.0.1:1 game=2 version=0.1.0 pid=3`), 'INFO');
    assert.equal(lineLevel(`${ts} [ERROR] boom`), 'ERROR');
    assert.equal(lineLevel(`${ts} [FATAL] Game port 17091/udp is not available`), 'ERROR');
    assert.equal(lineLevel(`${ts} [WARN] Unknown command "x".`), 'WARN');
    assert.equal(lineLevel(`${ts} [DEBUG] GET /stats`), 'DEBUG');
  });
  it('accepts WARNING and lower case from other software', () => {
    assert.equal(lineLevel('12:00:00 [WARNING] disk almost full'), 'WARN');
    assert.equal(lineLevel('[warning] no timestamp'), 'WARN');
    assert.equal(lineLevel('[error] no timestamp'), 'ERROR');
  });
  it('only looks at the leading tag, not at brackets inside the message', () => {
    assert.equal(lineLevel(`${ts} [INFO] > say [ERROR] is just text`), 'INFO');
    assert.equal(lineLevel('player said [ERROR] in chat'), 'PLAIN');
  });
  it('leaves lines without a known level plain', () => {
    assert.equal(lineLevel('[console] 12 line(s) skipped because the connection could not keep up.'), 'PLAIN');
    assert.equal(lineLevel(''), 'PLAIN');
    assert.equal(lineLevel(`${ts} [TRACE] x`), 'PLAIN');
  });
});

describe('toConsoleLines', () => {
  it('numbers lines from firstId and parses their level', () => {
    assert.deepEqual(toConsoleLines([`${ts} [WARN] a`, 'b'], 7), [
      { id: 7, text: `${ts} [WARN] a`, level: 'WARN' },
      { id: 8, text: 'b', level: 'PLAIN' },
    ]);
  });
});

describe('appendLines', () => {
  it('appends while under the limit', () => {
    assert.deepEqual(appendLines([1, 2], [3], 5), [1, 2, 3]);
  });
  it('drops the oldest lines beyond the limit', () => {
    assert.deepEqual(appendLines([1, 2, 3, 4], [5, 6, 7], 5), [3, 4, 5, 6, 7]);
  });
  it('keeps only the newest incoming lines when a batch alone exceeds the limit', () => {
    assert.deepEqual(appendLines([1, 2], [3, 4, 5, 6, 7, 8], 5), [4, 5, 6, 7, 8]);
  });
  it('does not change its inputs', () => {
    const view = [1, 2, 3];
    appendLines(view, [4], 3);
    assert.deepEqual(view, [1, 2, 3]);
  });
  it('caps at CONSOLE_MAX_LINES by default', () => {
    const many = Array.from({ length: CONSOLE_MAX_LINES + 10 }, (_, i) => i);
    const result = appendLines([], many);
    assert.equal(result.length, CONSOLE_MAX_LINES);
    assert.equal(result[0], 10);
  });
});

describe('queueLines and applyPending', () => {
  const lines = (...texts: string[]) => toConsoleLines(texts, 1);
  it('a history replaces the view, logs after it append to the history', () => {
    let pending = queueLines(null, lines('old'), false);
    pending = queueLines(pending, lines('h1', 'h2'), true);
    pending = queueLines(pending, lines('new'), false);
    assert.deepEqual(
      applyPending(lines('shown'), pending).map((l) => l.text),
      ['h1', 'h2', 'new'],
    );
  });
  it('logs alone append to the view', () => {
    const pending = queueLines(null, lines('a', 'b'), false);
    assert.deepEqual(
      applyPending(lines('shown'), pending).map((l) => l.text),
      ['shown', 'a', 'b'],
    );
  });
  it('stays bounded while nothing is rendered (a hidden tab)', () => {
    let pending = null;
    for (let i = 0; i < 50; i++) pending = queueLines(pending, lines(...Array(100).fill('x')), false);
    assert.equal(pending?.lines.length, CONSOLE_MAX_LINES);
  });
});

describe('isAtBottom (autoscroll decision)', () => {
  it('is true at the very bottom and within the slack', () => {
    assert.equal(isAtBottom({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 }), true);
    assert.equal(isAtBottom({ scrollTop: 590, scrollHeight: 1000, clientHeight: 400 }), true);
  });
  it('is false once the user has scrolled up', () => {
    assert.equal(isAtBottom({ scrollTop: 500, scrollHeight: 1000, clientHeight: 400 }), false);
    assert.equal(isAtBottom({ scrollTop: 0, scrollHeight: 1000, clientHeight: 400 }), false);
  });
  it('is true when everything fits', () => {
    assert.equal(isAtBottom({ scrollTop: 0, scrollHeight: 200, clientHeight: 400 }), true);
  });
  it('honours a custom slack', () => {
    assert.equal(isAtBottom({ scrollTop: 590, scrollHeight: 1000, clientHeight: 400 }, 0), false);
  });
});

describe('refusalLines', () => {
  it('writes the command after "> " and the reason as an error line, numbered on', () => {
    assert.deepEqual(refusalLines('give 2 5', 'Unknown command.', 7), [
      { id: 7, text: '> give 2 5', level: 'PLAIN' },
      { id: 8, text: '! refused: Unknown command.', level: 'ERROR' },
    ]);
  });
});
