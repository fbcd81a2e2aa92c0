import type { ClientSocketMessage, ServerSocketMessage } from '@canopy/contract';
import { serverPageMessages } from '@canopy/contract';
import { WebSocket } from 'ws';
import { accessServer } from '../access/server-access.ts';
import { activityRepo } from '../activity/activity.repo.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { usersRepo } from '../users/users.repo.ts';
import { ConsoleFeed, type ConsoleHub } from './console-feed.ts';
import { TokenBucket } from './rate-limit.ts';

/** Commands a connection may send: 10 at once, then 5 a second. */
const COMMAND_BURST = 10;
const COMMANDS_PER_SECOND = 5;

/**
 * The console side of one socket: subscribing needs console:use on the user's server (checked on the
 * current user row, so a ban or a revoked permission applies at once), commands are rate-limited and logged.
 */
export class ConsoleSession {
  private readonly ctx: AppContext;
  private readonly ws: WebSocket;
  private readonly userId: string;
  private feed: ConsoleFeed | null = null;
  private readonly bucket: TokenBucket;
  private readonly hub: ConsoleHub;

  constructor(ctx: AppContext, ws: WebSocket, userId: string, hub: ConsoleHub) {
    this.ctx = ctx;
    this.hub = hub;
    this.ws = ws;
    this.userId = userId;
    this.bucket = new TokenBucket(COMMAND_BURST, COMMANDS_PER_SECOND, ctx.now);
  }

  /** The server this user owns or collaborates on, with console access; throws the refusal. */
  async currentServer() {
    const user = await usersRepo.findById(this.ctx.db, this.userId);
    if (!user) throw new AppError(401, 'unauthorized', 'User not authenticated.');
    return (await accessServer(this.ctx, { user, familyId: '' }, this.userId, 'console:use')).server;
  }

  /** Stops following the console (unsubscribe or socket closed). */
  end() {
    this.hub.remove(this.feed);
    this.feed = null;
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
      } else await this.command(message.payload.command);
    } catch (error) {
      this.refuse(error instanceof AppError ? error.message : 'The command could not be run.');
    }
  }

  private async command(command: string) {
    if (!this.bucket.take()) throw new AppError(429, 'rate_limited', serverPageMessages.commandRateLimited);
    const server = await this.currentServer();
    const status = this.ctx.servers.runtime.state(server.id).status;
    if (status !== 'ONLINE') throw new AppError(409, 'server_offline', serverPageMessages.consoleOffline);
    await this.ctx.servers.runtime.sendCommand(server.id, command);
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
