import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs`; pass null to stop ticking (e.g. nothing to count down).
 * Not ticking, it is read at each render: the render that stops the ticking (a countdown reaching its end)
 * must not show the last tick's time, which lies before the end.
 */
export function useNow(intervalMs: number | null): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (intervalMs === null) return;
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return intervalMs === null ? new Date() : now;
}
