import type { ClientSocketMessage, ServerSocketMessage, SocketErrorCode } from '@canopy/contract';
import { hostingMessages, parseConsoleCommand, serverPageMessages } from '@canopy/contract';
import { WebSocket } from 'ws';
import { accessServer } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { usersRepo } from '../users/users.repo.ts';
import { ConsoleFeed, type ConsoleHub } from './console-feed.ts';
import { TokenBucket } from './rate-limit.ts';

/** Commands a user may send, over all their sockets together: 10 at once, then 5 a second. */
const COMMAND_BURST = 10;
const COMMANDS_PER_SECOND = 5;

/** The command rate limit of one user; every socket of that user takes from the same bucket. */
export function userCommandBucket(now: () => number): TokenBucket {
  return new TokenBucket(COMMAND_BURST, COMMANDS_PER_SECOND, now);
}
/** How often a live subscription re-checks the user's access. */
const RECHECK_MS = 5000;

/**
 * The console side of one socket: subscribing needs console:use on the user's server (checked on the
 * current user row, so a ban or a revoked permission applies at once), commands are rate-limited per user
 * and logged. Losing console:use is answered with the code `console_denied`, which the page turns into
 * its no-permission state at once.
 */
export class ConsoleSession {
  private readonly ctx: AppContext;
  private readonly ws: WebSocket;
  private readonly userId: string;
  private feed: ConsoleFeed | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private watchedServer: string | null = null;
  /** Ends this socket's watch of the runtime's console (a driver follows an engine elsewhere only while watched). */
  private unwatch: (() => void) | null = null;
  private readonly bucket: TokenBucket;
  private readonly hub: ConsoleHub;
  private readonly batch: boolean;

  /**
   * `bucket` is the user's (userCommandBucket), shared with their other sockets; `batch`: the socket asked
   * for console_batch frames.
   */
  constructor(ctx: AppContext, ws: WebSocket, userId: string, hub: ConsoleHub, bucket: TokenBucket, batch = false) {
    this.ctx = ctx;
    this.batch = batch;
    this.hub = hub;
    this.ws = ws;
    this.userId = userId;
    this.bucket = bucket;
  }

  /**
   * The server this user owns or collaborates on, if they hold `need` on it; throws the refusal. `write`:
   * a command, which changes the server (refused while its owner is banned; watching the console is not).
   */
  async currentServer(need: 'console:use' | 'server:actions' = 'console:use', write = false) {
    const user = await usersRepo.findById(this.ctx.db, this.userId);
    if (!user) throw new AppError(401, 'unauthorized', 'User not authenticated.');
    return (await accessServer(this.ctx, { user, familyId: '', expiresAt: 0 }, this.userId, need, { write })).server;
  }

  /** The server whose console this user may use; any refusal means the console is closed to them. */
  private async consoleServer(write = false) {
    try {
      return await this.currentServer('console:use', write);
    } catch (error) {
      // The owner's ban refuses this command only: the console itself stays open to watch.
      if (error instanceof AppError && error.code !== 'owner_banned')
        throw new AppError(error.status, 'console_denied', error.message);
      throw error;
    }
  }

  /** Stops following the console (unsubscribe or socket closed). */
  end() {
    this.hub.remove(this.feed);
    this.feed = null;
    this.unwatch?.();
    this.unwatch = null;
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
    this.watchedServer = null;
  }

  /** A revoked permission, a ban or a deleted server ends the subscription within RECHECK_MS. */
  private watchAccess(serverId: string) {
    this.watchedServer = serverId;
    this.recheck = setInterval(() => this.checkAccess(serverId), RECHECK_MS);
    this.recheck.unref();
  }

  /** Re-checks a live subscription at once (an admin just banned the user) instead of at the next tick. */
  recheckNow() {
    if (this.feed && this.watchedServer) this.checkAccess(this.watchedServer);
  }

  /** Still subscribed to this server's console (two checks in flight end it once). */
  private following(serverId: string) {
    return this.feed !== null && this.watchedServer === serverId;
  }

  private checkAccess(serverId: string) {
    this.consoleServer().then(
      (server) => {
        if (server.id === serverId || !this.following(serverId)) return;
        this.end();
        this.refuse(serverPageMessages.noPermissionConsole, 'console_denied');
      },
      (error) => {
        // A database hiccup is not a revocation: the next check decides.
        if (!(error instanceof AppError) || !this.following(serverId)) return;
        this.end();
        this.refuse(error.message, 'console_denied');
      },
    );
  }

  /**
   * Tells the browser why something was refused; `code` is what the page branches on. `command`: the refused
   * command, which the page writes with the reason into this browser's console view only. Not into the
   * server's history: the refusal concerns this user (their permission, rate, typo), and other viewers
   * would otherwise get lines any user could push into their view without the engine.
   */
  refuse(message: string, code: SocketErrorCode, command?: string) {
    this.send({ type: 'error', payload: command === undefined ? { message, code } : { message, code, command } });
  }

  async handle(message: ClientSocketMessage) {
    try {
      if (message.type === 'console_unsubscribe') this.end();
      else if (message.type === 'console_subscribe') {
        const server = await this.consoleServer();
        const runtime = this.ctx.servers.runtime;
        // Watched before the history is read: an engine elsewhere is followed from now, its kept lines read first.
        const watch = runtime.watchConsole(server.id);
        await watch.ready;
        if (this.ws.readyState !== WebSocket.OPEN) return watch.end();
        this.end();
        this.feed = new ConsoleFeed(this.ws, server.id, runtime.consoleHistory(server.id), this.batch);
        this.hub.add(this.feed);
        this.unwatch = watch.end;
        this.watchAccess(server.id);
      } else await this.command(message.payload.command);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal.code === 'console_denied') this.end();
      const command = message.type === 'console_command' ? this.shown(message.payload.command) : undefined;
      this.refuse(refusal.message, refusal.code, command);
    }
  }

  /** A command as the activity log shows it (a `register` password masked); an unknown one as typed. */
  private shown(command: string) {
    const parsed = parseConsoleCommand(command, { bench: this.ctx.config.benchCommands });
    return parsed.ok ? parsed.command.shown : command;
  }

  private async command(command: string) {
    if (!this.bucket.take()) throw new AppError(429, 'rate_limited', serverPageMessages.commandRateLimited);
    const server = await this.consoleServer(true);
    const runtime = this.ctx.servers.runtime;
    const status = runtime.state(server.id).status;
    if (status !== 'ONLINE') throw new AppError(409, 'server_offline', serverPageMessages.consoleOffline);
    // The contract's grammar, which the engine reads with too, decides what the command is and what it
    // needs; the engine is sent the canonical line, so it runs exactly what was classified here.
    const parsed = parseConsoleCommand(command, { bench: this.ctx.config.benchCommands });
    if (!parsed.ok) throw new AppError(400, 'invalid_command', parsed.message);
    if (parsed.command.class === 'power') {
      // Every power command ends the engine (stop and its aliases): a power action like the dashboard's
      // Stop, so it needs server:actions and goes through the supervisor.
      await this.currentServer('server:actions', true);
      if (runtime.isBusy(server.id)) throw new AppError(409, 'action_in_progress', hostingMessages.actionInProgress);
      await serversRepo.setDesiredState(this.ctx.db, server.id, 'stopped');
      runtime.stop(server.id).catch(() => {});
    } else await runtime.sendCommand(server.id, parsed.command.line);
    const user = await usersRepo.findById(this.ctx.db, this.userId);
    await activityRepo.add(
      this.ctx.db,
      {
        action: 'Console command',
        actorType: user?.is_admin === 1 ? 'Admin' : 'User',
        actorName: user?.grow_id ?? this.userId,
        // The masked form: a `register` line holds a password.
        details: `${server.name}: ${parsed.command.shown}`,
      },
      this.ctx.now(),
    );
  }

  private send(message: ServerSocketMessage) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}

/** The message and socket code of a refusal: the console itself, one command's permission, or the rest. */
function refusalOf(error: unknown): { message: string; code: SocketErrorCode } {
  if (!(error instanceof AppError)) return { message: 'The command could not be run.', code: 'failed' };
  if (error.code === 'console_denied') return { message: error.message, code: 'console_denied' };
  const byStatus: Record<number, SocketErrorCode> = {
    400: 'invalid',
    403: 'forbidden',
    409: 'conflict',
    429: 'rate_limited',
  };
  return { message: error.message, code: byStatus[error.status] ?? 'failed' };
}
