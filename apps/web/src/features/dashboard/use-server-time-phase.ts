import type { ServerStatus, ServerTime } from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { msUntilNextPhase, type ServerTimePhase, serverTimePhase } from '../../lib/expiry.ts';
import { refetchServerFacts } from '../../lib/status-query.ts';

// setTimeout holds at most ~24.8 days; a farther boundary is approached in steps.
const MAX_WAIT_MS = 24 * 3600 * 1000;
// Grace is over but the scheduler has not deleted the server yet (it passes once a minute by default):
// look again now and then, in case its server_notice push is missed (socket down).
const OVER_RECHECK_MS = 20_000;

/**
 * The server time's phase, re-rendering the moment it changes (time runs out, grace ends) so banners
 * and buttons follow without a reload; at each boundary profile and status are refetched too, to pick
 * up what the scheduler did.
 */
export function useServerTimePhase(time: ServerTime, hasServer: boolean): ServerTimePhase {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState(() => serverTimePhase(time, new Date()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (boundary: boolean) => {
      const now = new Date();
      setPhase(serverTimePhase(time, now));
      if (boundary) refetchServerFacts(queryClient);
      const wait = msUntilNextPhase(time, now);
      if (wait === null) {
        if (hasServer && serverTimePhase(time, now) === 'over') timer = setTimeout(() => check(true), OVER_RECHECK_MS);
        return;
      }
      // A few ms past the instant, so the phase read then is the new one.
      timer = setTimeout(() => check(wait <= MAX_WAIT_MS), Math.min(wait + 50, MAX_WAIT_MS));
    };
    check(false);
    return () => clearTimeout(timer);
  }, [time, hasServer, queryClient]);
  return phase;
}

/**
 * The api clears the crash-loop flag as soon as the server starts again; the cached profile would
 * keep it (and show the banner at the next ordinary stop), so it is refetched when that happens.
 */
export function useCrashLoopFollow(crashLoop: boolean, status: ServerStatus | undefined): void {
  const queryClient = useQueryClient();
  const started = status === 'STARTING' || status === 'RESTARTING' || status === 'ONLINE';
  useEffect(() => {
    if (crashLoop && started) refetchServerFacts(queryClient);
  }, [crashLoop, started, queryClient]);
}
