import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useToast } from '../../components/ui/index.ts';
import { useServerSocket, useSocketMessage, useSocketState } from '../../hooks/use-server-socket.ts';
import { profileQueryKey } from '../../lib/profile-query.ts';
import { useSession } from '../../lib/session.ts';
import { activeDenial, type ConsoleDenial, consoleRefusal } from './console-access.ts';
import {
  applyPending,
  type ConsoleLine,
  type PendingLines,
  queueLines,
  refusalLines,
  toConsoleLines,
} from './console-lines.ts';

/**
 * The live console over the server socket: subscribes while `enabled` and the socket is open (again
 * after every reconnect), keeps the newest CONSOLE_MAX_LINES lines, writes a refused command and its
 * reason into the view ('> cmd', '! refused: reason') and turns the api's other refusals into error toasts.
 * When the api says the console is closed to this user (console:use revoked, banned),
 * `denied` holds its text at once and the profile is refetched; the denial stands until that newer
 * `profile` arrives. Lines are applied once per animation frame, so a burst costs one render.
 */
export function useConsoleLog(enabled: boolean, profile: unknown) {
  const socket = useServerSocket();
  const state = useSocketState();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [denial, setDenial] = useState<ConsoleDenial | null>(null);
  const denied = activeDenial(denial, profile);
  const currentProfile = useRef(profile);
  currentProfile.current = profile;
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

  const show = useCallback(
    (received: ConsoleLine[], replace: boolean) => {
      nextId.current += received.length;
      pending.current = queueLines(pending.current, received, replace);
      frame.current ??= requestAnimationFrame(flush);
    },
    [flush],
  );
  const receive = useCallback(
    (texts: string[], replace: boolean) => show(toConsoleLines(texts, nextId.current), replace),
    [show],
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
  useSocketMessage('error', (error) => {
    const refusal = consoleRefusal(error);
    if (refusal.kind === 'denied') setDenial({ reason: refusal.reason, profile: currentProfile.current });
    // Only this browser's view: the server's history (what every viewer sees) is the engine's output.
    else if (refusal.kind === 'line') show(refusalLines(refusal.command, refusal.reason, nextId.current), false);
    else toast.error(refusal.message);
    // Every page's permissions come from the profile: the sidebar and buttons follow the api at once.
    if (refusal.refreshProfile && user) void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.id) });
  });

  const subscribed = enabled && denied === null;
  useEffect(() => {
    if (!socket || !subscribed || state !== 'OPEN') return;
    socket.send({ type: 'console_subscribe' });
    return () => {
      socket.send({ type: 'console_unsubscribe' });
    };
  }, [socket, subscribed, state]);

  return {
    lines,
    /** The api's live refusal of the console (its text), or null. */
    denied,
    /** Empties the view (the server keeps its history; a reload shows it again). */
    clear: useCallback(() => {
      pending.current = null;
      setLines([]);
    }, []),
  };
}
