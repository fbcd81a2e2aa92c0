import { ENGINE_LOG_LINE } from '@canopy/contract';

/** The colour classes of the log: the four levels of the spec, and PLAIN for lines without one. */
export type LogLevel = 'INFO' | 'ERROR' | 'WARN' | 'DEBUG' | 'PLAIN';

/** One line in the view; `id` is a stable React key that survives trimming. */
export interface ConsoleLine {
  id: number;
  text: string;
  level: LogLevel;
}

/** Most lines kept in view; older ones are dropped so a chatty server cannot grow the page's memory. */
export const CONSOLE_MAX_LINES = 2000;

/** Distance from the bottom (px) that still counts as "at the bottom" (rounding, sub-pixel zoom). */
export const AUTOSCROLL_SLACK_PX = 24;

const levelAliases: Record<string, LogLevel> = {
  INFO: 'INFO',
  ERROR: 'ERROR',
  FATAL: 'ERROR',
  WARN: 'WARN',
  WARNING: 'WARN',
  DEBUG: 'DEBUG',
};

// Other software (or an older engine) may print `[WARNING]` or lower case; the first bracketed tag counts.
const LOOSE_LEVEL = /^\S*\s*\[([A-Za-z]+)\]/;

/** The colour level of an engine line (`<timestamp> [LEVEL] message`); PLAIN when it has none. */
export function lineLevel(line: string): LogLevel {
  const strict = ENGINE_LOG_LINE.exec(line);
  const tag = strict?.[2] ?? LOOSE_LEVEL.exec(line)?.[1];
  return (tag && levelAliases[tag.toUpperCase()]) || 'PLAIN';
}

/** Turns raw lines into view lines numbered from `firstId`. */
export function toConsoleLines(texts: readonly string[], firstId: number): ConsoleLine[] {
  return texts.map((text, i) => ({ id: firstId + i, text, level: lineLevel(text) }));
}

/**
 * The two lines a refused command leaves in the issuing browser's view: the command as typed after '> '
 * (the engine echoes run commands the same way) and the reason, coloured as an error.
 */
export function refusalLines(command: string, reason: string, firstId: number): ConsoleLine[] {
  return [
    { id: firstId, text: `> ${command}`, level: 'PLAIN' },
    { id: firstId + 1, text: `! refused: ${reason}`, level: 'ERROR' },
  ];
}

/** Appends `incoming` to `view`, keeping only the newest `max` lines (a new array; the inputs are untouched). */
export function appendLines<T>(view: readonly T[], incoming: readonly T[], max: number = CONSOLE_MAX_LINES): T[] {
  if (incoming.length >= max) return incoming.slice(incoming.length - max);
  const overflow = view.length + incoming.length - max;
  return overflow > 0 ? [...view.slice(overflow), ...incoming] : [...view, ...incoming];
}

/** The scroll facts of the log element. */
export interface ScrollBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/** True when the log is scrolled to (or within the slack of) its bottom: new lines then keep it there. */
export function isAtBottom(box: ScrollBox, slack: number = AUTOSCROLL_SLACK_PX): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= slack;
}

/** Lines received since the last render: a history replaces the view, logs append to it. */
export interface PendingLines {
  replace: boolean;
  lines: ConsoleLine[];
}

/** Adds received lines to the pending set (bounded too: frames stop while the tab is hidden). */
export function queueLines(pending: PendingLines | null, lines: ConsoleLine[], replace: boolean): PendingLines {
  if (replace || !pending) return { replace, lines: appendLines([], lines) };
  return { replace: pending.replace, lines: appendLines(pending.lines, lines) };
}

/** The view after the pending lines are applied. */
export function applyPending(view: readonly ConsoleLine[], pending: PendingLines): ConsoleLine[] {
  return pending.replace ? pending.lines : appendLines(view, pending.lines);
}
