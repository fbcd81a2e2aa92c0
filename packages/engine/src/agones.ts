// The engine under Agones (docs/decisions/0042-kubernetes-stand-in.md): Ready once the game port listens, a Health
// ping every few seconds, Shutdown when it stops. program.ts imports this module only when AGONES_SDK_GRPC_PORT is
// set (the Agones sidecar sets it), so that an engine not under Agones loads neither the SDK nor gRPC. Every failure
// is a WARN: the game never stops because the SDK server is unreachable.
import { createRequire } from 'node:module';
import { errorMessage, type Logger } from './log.ts';

// The SDK is CommonJS (module.exports = the class) while its typings declare an ES default export; requiring it
// gives the class under the type its typings describe.
const AgonesSDK = createRequire(import.meta.url)(
  '@google-cloud/agones-sdk',
) as typeof import('@google-cloud/agones-sdk').default;

/** Between health pings; Agones' default health period is 5 s, so two pings fall in each. */
export const HEALTH_INTERVAL_MS = 2000;
/** How long the first connection may take before a WARN says so (the engine keeps trying meanwhile). */
const CONNECT_WARN_MS = 3000;
/** Between connection attempts (each waits up to the SDK's own 30 s). */
const CONNECT_RETRY_MS = 5000;
/** Longest Shutdown may hold up the process's exit. */
const SHUTDOWN_WAIT_MS = 2000;

export interface AgonesLink {
  /** Tells Agones the game server is ready for players (a game engine once its READY line is out). */
  ready(): void;
  /** Tells Agones the server is shutting down, then closes the connection; never rejects. */
  shutdown(): Promise<void>;
}

/**
 * Connects to the SDK server (retrying in the background) and pings Health every HEALTH_INTERVAL_MS while the
 * process lives. Calls made before the connection is up wait for it.
 */
export function linkAgones(log: Logger): AgonesLink {
  const sdk = new AgonesSDK();
  let stopped = false;
  let healthFailing = false;
  const connected = (async () => {
    const warn = setTimeout(
      () => log.warn(`Agones SDK server on port ${sdk.port} not reachable yet; the game runs on, still trying`),
      CONNECT_WARN_MS,
    );
    warn.unref();
    try {
      while (!stopped) {
        try {
          await sdk.connect();
          log.info(`Connected to the Agones SDK server on port ${sdk.port}`);
          return true;
        } catch (error) {
          log.debug(`Agones SDK connection failed: ${errorMessage(error)}`);
          await new Promise((resolve) => setTimeout(resolve, CONNECT_RETRY_MS).unref());
        }
      }
      return false;
    } finally {
      clearTimeout(warn);
    }
  })();

  // The SDK keeps one Health stream and writes to it for ever, even once the call has ended (a sidecar started
  // again): no error ever comes back. So the stream's end is watched on the SDK's own field, and the next ping
  // opens a new stream (test: agones.test.ts, a restarted SDK server).
  const internals = sdk as unknown as { healthStream?: NodeJS.EventEmitter };
  const ping = () => {
    const before = internals.healthStream;
    sdk.health((error: unknown) => {
      if (!healthFailing) log.warn(`Agones health ping failed: ${errorMessage(error)}`);
      healthFailing = true;
    });
    const stream = internals.healthStream;
    if (stream && stream !== before)
      stream.on('status', (status: { details?: string }) => {
        if (internals.healthStream === stream) internals.healthStream = undefined;
        if (!stopped) log.warn(`Agones health stream ended (${status.details ?? 'no details'}); opening a new one`);
      });
  };
  const health = setInterval(() => {
    void connected.then((up) => {
      if (up && !stopped) ping();
    });
  }, HEALTH_INTERVAL_MS);
  // The interval must not keep a stopping engine alive.
  health.unref();

  return {
    ready() {
      void connected.then(async (up) => {
        if (!up || stopped) return;
        try {
          await sdk.ready();
          log.info('Told Agones the server is Ready');
        } catch (error) {
          log.warn(`Agones Ready failed: ${errorMessage(error)}`);
        }
      });
    },
    async shutdown() {
      stopped = true;
      clearInterval(health);
      const up = await Promise.race([connected, new Promise<false>((r) => setTimeout(r, 0, false))]);
      if (!up) return;
      try {
        await Promise.race([
          sdk.shutdown(),
          new Promise((_, reject) => setTimeout(reject, SHUTDOWN_WAIT_MS, new Error('no answer')).unref()),
        ]);
        log.info('Told Agones the server is shutting down');
      } catch (error) {
        log.warn(`Agones Shutdown failed: ${errorMessage(error)}`);
      } finally {
        sdk.close();
      }
    },
  };
}
