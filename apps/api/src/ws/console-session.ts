import type { ClientSocketMessage, ServerSocketMessage } from '@canopy/contract';
import { hostingMessages, serverPageMessages } from '@canopy/contract';
import { WebSocket } from 'ws';
import { accessServer } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { serversRepo } from '../servers/servers.repo.ts';
import { usersRepo } from '../users/users.repo.ts';
import { ConsoleFeed, type ConsoleHub } from './console-feed.ts';
import { TokenBucket } from './rate-limit.ts';

/** Commands a connection may send: 10 at once, then 5 a second. */
const COMMAND_BURST = 10;
const COMMANDS_PER_SECOND = 5;
/** How often a live subscription re-checks the user's access. */
const RECHECK_MS = 5000;
/** `stop` in the console is a power action: it goes through the supervisor and needs server:actions. */
const STOP_COMMAND = /^\/?stop$/i;

/**
 * The console side of one socket: subscribing needs console:use on the user's server (checked on the
 * current user row, so a ban or a revoked permission applies at once), commands are rate-limited and logged.
 */
export class ConsoleSession {
  private readonly ctx: AppContext;
  private readonly ws: WebSocket;
  private readonly userId: string;
  private feed: ConsoleFeed | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private readonly bucket: TokenBucket;
  private readonly hub: ConsoleHub;

  constructor(ctx: AppContext, ws: WebSocket, userId: string, hub: ConsoleHub) {
    this.ctx = ctx;
    this.hub = hub;
    this.ws = ws;
    this.userId = userId;
    this.bucket = new TokenBucket(COMMAND_BURST, COMMANDS_PER_SECOND, ctx.now);
  }

  /** The server this user owns or collaborates on, if they hold `need` on it; throws the refusal. */
  async currentServer(need: 'console:use' | 'server:actions' = 'console:use') {
    const user = await usersRepo.findById(this.ctx.db, this.userId);
    if (!user) throw new AppError(401, 'unauthorized', 'User not authenticated.');
    return (await accessServer(this.ctx, { user, familyId: '', expiresAt: 0 }, this.userId, need)).server;
  }

  /** Stops following the console (unsubscribe or socket closed). */
  end() {
    this.hub.remove(this.feed);
    this.feed = null;
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
  }

  /** A revoked permission, a ban or a deleted server ends the subscription within RECHECK_MS. */
  private watchAccess(serverId: string) {
    this.recheck = setInterval(() => {
      this.currentServer().then(
        (server) => {
          if (server.id !== serverId) throw new AppError(403, 'forbidden', serverPageMessages.noPermissionConsole);
        },
        (error) => {
          this.end();
          this.refuse(error instanceof AppError ? error.message : serverPageMessages.noPermissionConsole);
        },
      );
    }, RECHECK_MS);
    this.recheck.unref();
  }

  refuse(message: string) {
    this.send({ type: 'error', payload: { message } });
  }

  async handle(message: ClientSocketMessage) {
    try {
      if (message.type === 'console_unsubscribe') this.end();
      else if (message.type === 'console_subscribe') {
        const server = await this.currentServer();
        this.end();
        this.feed = new ConsoleFeed(this.ws, server.id, this.ctx.servers.runtime.consoleHistory(server.id));
        this.hub.add(this.feed);
        this.watchAccess(server.id);
      } else await this.command(message.payload.command);
    } catch (error) {
      this.refuse(error instanceof AppError ? error.message : 'The command could not be run.');
    }
  }

  private async command(command: string) {
    if (!this.bucket.take()) throw new AppError(429, 'rate_limited', serverPageMessages.commandRateLimited);
    const server = await this.currentServer();
    const runtime = this.ctx.servers.runtime;
    const status = runtime.state(server.id).status;
    if (status !== 'ONLINE') throw new AppError(409, 'server_offline', serverPageMessages.consoleOffline);
    if (STOP_COMMAND.test(command)) {
      await this.currentServer('server:actions');
      if (runtime.isBusy(server.id)) throw new AppError(409, 'action_in_progress', hostingMessages.actionInProgress);
      await serversRepo.setDesiredState(this.ctx.db, server.id, 'stopped');
      runtime.stop(server.id).catch(() => {});
    } else await runtime.sendCommand(server.id, command);
    const user = await usersRepo.findById(this.ctx.db, this.userId);
    await activityRepo.add(
      this.ctx.db,
      {
        action: 'Console command',
        actorType: user?.is_admin === 1 ? 'Admin' : 'User',
        actorName: user?.grow_id ?? this.userId,
        details: `${server.name}: ${command}`,
      },
      this.ctx.now(),
    );
  }

  private send(message: ServerSocketMessage) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}
