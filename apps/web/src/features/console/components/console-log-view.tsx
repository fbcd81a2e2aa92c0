import { useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/index.ts';
import { type ConsoleLine, isAtBottom, type LogLevel } from '../console-lines.ts';

const levelClasses: Record<LogLevel, string> = {
  INFO: 'text-sky-200',
  ERROR: 'text-red-400',
  WARN: 'text-amber-300',
  DEBUG: 'text-slate-500',
  PLAIN: 'text-slate-300',
};

export interface ConsoleLogViewProps {
  lines: readonly ConsoleLine[];
  /** The reason the console cannot be used; shows the 'Console Unavailable' overlay. */
  blockedReason: string | null;
}

/**
 * The log area: lines coloured by level; it follows new lines while scrolled to the bottom, stays put
 * once the user scrolls up, and follows again when they scroll back down (or press Jump to latest).
 */
export function ConsoleLogView({ lines, blockedReason }: ConsoleLogViewProps) {
  const box = useRef<HTMLDivElement>(null);
  // A ref, not state: the decision is read after each render and must not cause one itself.
  const follow = useRef(true);
  const [following, setFollowing] = useState(true);

  const setFollow = (value: boolean) => {
    follow.current = value;
    setFollowing(value);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after every change of the lines, which it does not read
  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const jumpToLatest = () => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    setFollow(true);
  };

  return (
    <div className="relative">
      <div
        ref={box}
        data-testid="console-log"
        data-following={following}
        role="log"
        aria-label="Server console output"
        aria-live="off"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable by keyboard to be scrolled
        tabIndex={0}
        onScroll={(event) => {
          const atBottom = isAtBottom(event.currentTarget);
          if (atBottom !== follow.current) setFollow(atBottom);
        }}
        className="h-[60vh] min-h-64 overflow-y-auto rounded-lg border border-line bg-slate-950 p-3 font-mono text-xs leading-5"
      >
        {lines.length === 0 ? (
          <p className="text-slate-500">No output yet.</p>
        ) : (
          lines.map((line) => (
            <div
              key={line.id}
              data-testid="console-line"
              data-level={line.level}
              className={`whitespace-pre-wrap break-all ${levelClasses[line.level]}`}
            >
              {line.text}
            </div>
          ))
        )}
      </div>
      {!following && !blockedReason && (
        <Button
          size="sm"
          variant="secondary"
          data-testid="console-jump-latest"
          onClick={jumpToLatest}
          className="absolute right-4 bottom-3 shadow-lg"
        >
          Jump to latest
        </Button>
      )}
      {blockedReason && (
        <div
          data-testid="console-unavailable"
          role="status"
          className="absolute inset-0 flex flex-col items-center justify-center gap-2 rounded-lg bg-slate-950/85 p-6 text-center backdrop-blur-sm"
        >
          <h2 className="font-semibold text-ink text-lg">Console Unavailable</h2>
          <p data-testid="console-unavailable-reason" className="max-w-md text-ink-muted text-sm">
            {blockedReason}
          </p>
        </div>
      )}
    </div>
  );
}
