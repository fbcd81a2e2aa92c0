import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GatewayLog } from '../gateway-log.ts';
import { RestartWithBackoff } from '../restart-backoff.ts';
import type { SniContexts } from '../tls/sni-contexts.ts';
import type { FromTlsThread, GatewayRequest, HttpAnswer, TlsThreadStart, ToTlsThread } from './messages.ts';

const THREAD_MAIN = fileURLToPath(new URL('./tls-thread.ts', import.meta.url));

/** What the TLS thread is started with besides the login pair (read from the SNI table at each start). */
export type TlsThreadSettings = Omit<TlsThreadStart, 'login' | 'loginName'>;

/**
 * Runs the gateway's HTTPS server in a worker thread (tls-thread.ts, ADR 0032) and answers its requests with
 * `handle` on this event loop. The login pair follows the SNI table: each swap (an ACME renewal) is sent to the
 * thread and settles once it serves it. A thread that dies is started again on the same port, with backoff.
 */
export class GatewayTlsThread {
  private worker: Worker | undefined;
  private ready = false;
  private stopped = false;
  private everReady = false;
  private readonly restarts = new RestartWithBackoff(() =>
    this.spawnOnce().then(
      (port) => this.log.info(`gateway https thread restarted on port ${port}`),
      // Its exit handler has scheduled the next attempt already.
      (error: Error) => this.log.error(error.message),
    ),
  );
  private seq = 0;
  private readonly loginDone = new Map<number, () => void>();
  private readonly settings: TlsThreadSettings;
  private readonly sni: SniContexts;
  private readonly handle: (request: GatewayRequest) => Promise<HttpAnswer>;
  private readonly log: GatewayLog;
  private readonly unsubscribe: () => void;

  constructor(
    settings: TlsThreadSettings,
    sni: SniContexts,
    handle: (request: GatewayRequest) => Promise<HttpAnswer>,
    log: GatewayLog,
  ) {
    this.settings = settings;
    this.sni = sni;
    this.handle = handle;
    this.log = log;
    this.unsubscribe = sni.onLogin((pair, source) => this.sendLogin({ pair, source }));
  }

  /** The TCP port the thread listens on (known after start()). */
  get port(): number {
    return this.settings.port;
  }

  /** The running thread's id (tests see it is not the api's, and end it to see it come back). */
  get threadId(): number | undefined {
    return this.ready ? this.worker?.threadId : undefined;
  }

  /** Starts the thread and resolves with its port once it listens. */
  async start(): Promise<number> {
    this.settings.port = await this.spawnOnce();
    return this.settings.port;
  }

  /** Ends the thread (for tests: an unexpected exit, followed by a restart). */
  async terminateThread(): Promise<void> {
    await this.worker?.terminate();
  }

  private spawnOnce(): Promise<number> {
    const workerData: TlsThreadStart = { ...this.settings, loginName: this.sni.loginName, login: this.sni.loginPair() };
    const worker = new Worker(THREAD_MAIN, { workerData, name: 'gateway-tls' });
    this.worker = worker;
    this.ready = false;
    const startedAt = Date.now();
    const post = (message: ToTlsThread) => worker.postMessage(message);
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromTlsThread) => {
        switch (message.type) {
          case 'ready':
            ready = true;
            this.everReady = true;
            if (this.worker === worker) this.ready = true;
            resolve(message.port);
            break;
          case 'failed':
            reject(new Error(message.message));
            void worker.terminate();
            break;
          case 'request':
            void this.handle(message.request).then(
              (answer) => post({ type: 'answer', id: message.id, answer }),
              (error: Error) => this.log.error(`gateway https: ${error.message}`),
            );
            break;
          case 'login-done':
            this.loginDone.get(message.seq)?.();
            break;
          case 'log':
            this.log[message.level](message.message);
        }
      });
      worker.on('error', (error) => this.log.error(`gateway https thread: ${error.message}`));
      worker.on('exit', (code) => {
        if (this.worker === worker) {
          this.worker = undefined;
          this.ready = false;
        }
        // A swap waiting for this thread is served by the next one, which starts with the current pair.
        for (const done of this.loginDone.values()) done();
        this.loginDone.clear();
        if (!ready) {
          reject(new Error(`the gateway's HTTPS thread exited before it listened (code ${code})`));
          // A first start that fails is the caller's to report; only a thread that once ran is restarted.
          if (!this.everReady) return;
        }
        if (this.stopped) return;
        const delay = this.restarts.schedule(startedAt);
        this.log.error(`gateway https thread exited (code ${code}); restarting in ${delay} ms`);
      });
    });
  }

  // Settles once the thread serves the pair (one still starting reads it after its workerData); with none
  // running, the next one starts with it.
  private sendLogin(login: { pair: TlsThreadStart['tls']; source: 'operator' | 'acme' }): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.loginDone.set(seq, () => {
        this.loginDone.delete(seq);
        resolve();
      });
      worker.postMessage({ type: 'login', seq, ...login } satisfies ToTlsThread);
    });
  }

  /** Ends the thread for good (its server and connections with it). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.restarts.stop();
    await this.worker?.terminate();
  }
}
