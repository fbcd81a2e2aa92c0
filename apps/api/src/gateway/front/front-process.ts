import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { GatewayLog } from '../gateway-log.ts';
import { RestartWithBackoff } from '../restart-backoff.ts';

const FRONT_MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const READY = /^FRONT READY udp=(\d+)$/;
const READY_TIMEOUT_MS = 15_000;

/** What the front is started with. */
export interface FrontSettings {
  key: Buffer;
  host: string;
  /** 0 picks a free port on the first start; restarts keep the one it got. */
  port: number;
  publicIp: string;
}

/**
 * Runs the ENet front (front/main.ts) as a child process and restarts it when it exits unexpectedly, with
 * backoff; the key goes over its stdin. stop() ends it and no restart follows.
 */
export class FrontProcess {
  private child: ChildProcess | undefined;
  private stopped = false;
  private everReady = false;
  private readonly restarts = new RestartWithBackoff(() =>
    this.spawnOnce().then(
      (port) => this.log.info(`gateway front restarted on UDP ${port}`),
      // Its exit handler has scheduled the next attempt already.
      (error: Error) => this.log.error(error.message),
    ),
  );
  private port: number;
  private readonly settings: FrontSettings;
  private readonly log: GatewayLog;

  constructor(settings: FrontSettings, log: GatewayLog) {
    this.settings = settings;
    this.port = settings.port;
    this.log = log;
  }

  /** The UDP port the front binds (known after start()). */
  get udpPort(): number {
    return this.port;
  }

  /** The running child's pid (tests kill it to see it come back). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the front and resolves with its UDP port once it is bound. */
  async start(): Promise<number> {
    this.port = await this.spawnOnce();
    return this.port;
  }

  private spawnOnce(): Promise<number> {
    const child = spawn(process.execPath, [FRONT_MAIN], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // The front needs nothing of the api's environment (its secrets included).
      env: { PATH: process.env.PATH ?? '', NODE_ENV: process.env.NODE_ENV ?? '' },
    });
    this.child = child;
    const startedAt = Date.now();
    child.stdin?.write(
      `${JSON.stringify({
        key: this.settings.key.toString('base64'),
        host: this.settings.host,
        port: this.port,
        publicIp: this.settings.publicIp,
      })}\n`,
    );
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) =>
      this.log.warn(`gateway front: ${line}`),
    );
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        if (ready) return;
        child.kill('SIGKILL');
        reject(new Error('the gateway front did not start in time'));
      }, READY_TIMEOUT_MS);
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        const m = READY.exec(line);
        if (m && !ready) {
          ready = true;
          this.everReady = true;
          clearTimeout(timer);
          resolve(Number(m[1]));
        } else if (ready) this.log.info(`gateway ${line}`);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) this.child = undefined;
        if (!ready) {
          reject(new Error(`the gateway front exited before it was ready (${signal ?? `code ${code}`})`));
          // A first start that fails is the caller's to report; only a front that once ran is restarted.
          if (!this.everReady) return;
        }
        if (this.stopped) return;
        const delay = this.restarts.schedule(startedAt);
        this.log.error(`gateway front exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      });
    });
  }

  /** Ends the front for good and waits for it to exit. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.restarts.stop();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killTimer);
  }
}
