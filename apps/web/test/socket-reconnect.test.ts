import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SOCKET_BACKOFF_INITIAL_MS,
  SOCKET_BACKOFF_MAX_MS,
  SOCKET_REFRESH_RETRY_MS,
  SOCKET_RESTART_RETRY_MAX_MS,
  socketCloseCodes,
} from '@canopy/contract';
import {
  backoffDelayMs,
  decideOnClose,
  decideOnOpen,
  initialReconnectState,
  type ReconnectState,
} from '../src/lib/socket-reconnect.ts';

/** Feeds close codes one after the other and returns each decision. */
function closes(codes: number[], start: ReconnectState = initialReconnectState) {
  let state = start;
  return codes.map((code) => {
    const { decision, next } = decideOnClose(code, state);
    state = next;
    return decision;
  });
}

describe('backoffDelayMs', () => {
  it('starts at the initial delay, doubles and caps at the maximum', () => {
    assert.equal(SOCKET_BACKOFF_INITIAL_MS, 1000);
    assert.equal(SOCKET_BACKOFF_MAX_MS, 30000);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 20].map(backoffDelayMs),
      [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
    );
  });
});

describe('decideOnClose', () => {
  it('stops on a normal close (1000) and on a deliberate close, whatever the code', () => {
    assert.deepEqual(decideOnClose(1000, initialReconnectState).decision, { kind: 'stop' });
    assert.deepEqual(decideOnClose(1006, initialReconnectState, true).decision, { kind: 'stop' });
  });

  it('retries an abnormal close with backoff and toasts only on the first close of the outage', () => {
    assert.deepEqual(closes([1006, 1006, 1001, 1006]), [
      { kind: 'retry', delayMs: 1000, toast: true },
      { kind: 'retry', delayMs: 2000, toast: false },
      { kind: 'retry', delayMs: 4000, toast: false },
      { kind: 'retry', delayMs: 8000, toast: false },
    ]);
  });

  it('refreshes the session on 1008 and 1011 and retries after the refresh delay, without a toast', () => {
    for (const code of [1008, 1011]) {
      assert.deepEqual(closes([code]), [{ kind: 'refresh', delayMs: SOCKET_REFRESH_RETRY_MS }]);
    }
    assert.equal(SOCKET_REFRESH_RETRY_MS, 500);
  });

  it('falls back to backoff when the socket is refused again without opening in between', () => {
    assert.deepEqual(closes([1008, 1008, 1008]), [
      { kind: 'refresh', delayMs: 500 },
      { kind: 'retry', delayMs: 1000, toast: true },
      { kind: 'retry', delayMs: 2000, toast: false },
    ]);
  });

  it('refreshes a refusal that follows a network outage', () => {
    assert.deepEqual(closes([1006, 1008, 1006]), [
      { kind: 'retry', delayMs: 1000, toast: true },
      { kind: 'refresh', delayMs: 500 },
      { kind: 'retry', delayMs: 2000, toast: false },
    ]);
  });

  it('waits the maximum delay at once when refused for load (4029 too many connections, 1013 busy)', () => {
    assert.equal(socketCloseCodes.tooManyConnections, 4029);
    for (const code of [socketCloseCodes.tooManyConnections, socketCloseCodes.tryAgainLater]) {
      assert.deepEqual(closes([code, code, code]), [
        { kind: 'retry', delayMs: SOCKET_BACKOFF_MAX_MS, toast: true },
        { kind: 'retry', delayMs: SOCKET_BACKOFF_MAX_MS, toast: false },
        { kind: 'retry', delayMs: SOCKET_BACKOFF_MAX_MS, toast: false },
      ]);
    }
    // Once a slot is free and the socket has opened, the next outage starts over.
    const { next } = decideOnOpen(decideOnClose(4029, initialReconnectState).next);
    assert.deepEqual(closes([1006], next), [{ kind: 'retry', delayMs: 1000, toast: true }]);
  });

  it('reconnects from a replica restarting (1012) within a second, at a random moment, without a toast', () => {
    assert.equal(socketCloseCodes.serviceRestart, 1012);
    assert.equal(SOCKET_RESTART_RETRY_MAX_MS, 1000);
    for (const [random, delayMs] of [
      [0, 0],
      [0.25, 250],
      [0.999, 999],
    ] as const)
      assert.deepEqual(
        decideOnClose(1012, initialReconnectState, false, () => random),
        {
          decision: { kind: 'retry', delayMs, toast: false },
          next: initialReconnectState,
        },
      );
    // No replica answered the reconnect either: that is an outage, announced once, with the usual backoff.
    const { next } = decideOnClose(1012, initialReconnectState, false, () => 0.5);
    assert.deepEqual(closes([1006, 1006], next), [
      { kind: 'retry', delayMs: 1000, toast: true },
      { kind: 'retry', delayMs: 2000, toast: false },
    ]);
  });

  it('a normal close resets the state', () => {
    const { next } = decideOnClose(1000, { attempt: 4, outage: true, refreshTried: true });
    assert.deepEqual(next, initialReconnectState);
  });
});

describe('decideOnOpen', () => {
  it('toasts the reconnection only after an announced outage, and resets the backoff', () => {
    assert.deepEqual(decideOnOpen(initialReconnectState), { toast: false, next: initialReconnectState });
    assert.deepEqual(decideOnOpen({ attempt: 3, outage: true, refreshTried: false }), {
      toast: true,
      next: initialReconnectState,
    });
    assert.deepEqual(decideOnOpen({ attempt: 0, outage: false, refreshTried: true }).toast, false);
  });

  it('after a reopen the next outage starts at the initial delay and toasts again', () => {
    const { next } = decideOnOpen({ attempt: 5, outage: true, refreshTried: false });
    assert.deepEqual(closes([1006], next), [{ kind: 'retry', delayMs: 1000, toast: true }]);
  });
});
