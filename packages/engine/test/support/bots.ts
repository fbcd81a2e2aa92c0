// Headless clients (@canopy/gtclient) against an engine in its production ENet mode, through the stand-in front.
import { Bot, type CallEvent, type Tank } from '@canopy/gtclient';
import { killAll, type RunningEngine, removeDataDir, startEngine, stopEngine, tempDataDir } from './engine-process.ts';
import { startFrontStandIn } from './front-stand-in.ts';
import { testToken } from './game-client.ts';

/** An engine with a front; `bot()` logs a GrowID in, `close()` ends everything it started. */
export interface BotEngine {
  engine: RunningEngine;
  /** A bot logged in as `growId` and shown the world menu (and welcomed). */
  bot(growId: string): Promise<Bot>;
  close(): Promise<void>;
}

/** Starts an engine (with extra flags) and a front for it; resolves once items.dat is built. */
export async function startBotEngine(extraArgs: string[] = []): Promise<BotEngine> {
  const dataDir = tempDataDir();
  const engine = await startEngine({
    dataDir,
    args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', ...extraArgs],
  });
  const front = startFrontStandIn(engine.gamePort);
  const bots: Bot[] = [];
  await engine.waitForLine(/Built effective-items\.dat/);
  return {
    engine,
    async bot(growId) {
      const b = new Bot({ stepTimeoutMs: 15_000 });
      bots.push(b);
      await b.login({ host: '127.0.0.1', port: front.port }, { token: testToken(growId) });
      // The welcome line follows the menu: waited for, so that it is not read as the reason of a refusal.
      const welcome = b.waitForCall('OnConsoleMessage', 15_000, (c) => /^Welcome back/.test(String(c.args[0])));
      await b.enterGame();
      await welcome;
      return b;
    },
    async close() {
      for (const b of bots) await b.disconnect().catch(() => {});
      front.close();
      await stopEngine(engine);
      killAll();
      removeDataDir(dataDir);
    },
  };
}

/**
 * Joins a world and waits for its "World … entered" line as well, so that nothing of this join is still on its
 * way when the test sends the next step (a refusal's reason would otherwise be read from a stale line).
 */
export async function enter(b: Bot, world: string) {
  const entered = b.waitForCall('OnConsoleMessage', 15_000, (c) => /^World \S+ entered\./.test(String(c.args[0])));
  entered.catch(() => {});
  const joined = await b.join(world);
  await entered;
  return joined;
}

/** Every call and tank a bot receives from now on, until `stop()`. */
export function record(b: Bot) {
  const seen: { call?: CallEvent; tank?: Tank }[] = [];
  const onCall = (call: CallEvent) => seen.push({ call });
  const onTank = (tank: Tank) => seen.push({ tank });
  b.on('call', onCall);
  b.on('tank', onTank);
  return {
    seen,
    stop() {
      b.off('call', onCall);
      b.off('tank', onTank);
    },
  };
}
