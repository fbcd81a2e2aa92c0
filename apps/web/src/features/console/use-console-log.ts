import { useCallback, useEffect, useRef, useState } from 'react';
import { useToast } from '../../components/ui/index.ts';
import { useServerSocket, useSocketMessage, useSocketState } from '../../hooks/use-server-socket.ts';
import { applyPending, type ConsoleLine, type PendingLines, queueLines, toConsoleLines } from './console-lines.ts';

/**
 * The live console over the server socket: subscribes while `enabled` and the socket is open (again
 * after every reconnect), keeps the newest CONSOLE_MAX_LINES lines, and turns the api's refusals into
 * error toasts. Lines are applied once per animation frame, so a burst costs one render.
 */
export function useConsoleLog(enabled: boolean) {
  const socket = useServerSocket();
  const state = useSocketState();
  const toast = useToast();
  const [lines, setLines] = useState<ConsoleLine[]>([]);
  const nextId = useRef(1);
  const pending = useRef<PendingLines | null>(null);
  const frame = useRef<number | null>(null);

  const flush = useCallback(() => {
    frame.current = null;
    const queued = pending.current;
    pending.current = null;
    if (queued) setLines((view) => applyPending(view, queued));
  }, []);

  const receive = useCallback(
    (texts: string[], replace: boolean) => {
      const received = toConsoleLines(texts, nextId.current);
      nextId.current += texts.length;
      pending.current = queueLines(pending.current, received, replace);
      frame.current ??= requestAnimationFrame(flush);
    },
    [flush],
  );

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  useSocketMessage('console_history', ({ lines: history }) => receive(history, true));
  useSocketMessage('console_log', ({ line }) => receive([line], false));
  useSocketMessage('console_batch', ({ lines: batch }) => receive(batch, false));
  useSocketMessage('error', ({ message }) => toast.error(message));

  useEffect(() => {
    if (!socket || !enabled || state !== 'OPEN') return;
    socket.send({ type: 'console_subscribe' });
    return () => {
      socket.send({ type: 'console_unsubscribe' });
    };
  }, [socket, enabled, state]);

  return {
    lines,
    /** Empties the view (the server keeps its history; a reload shows it again). */
    clear: useCallback(() => {
      pending.current = null;
      setLines([]);
    }, []),
  };
}
