// The headless client: promise-based steps doing what the game client does, over our own ENet and codec.

import { EventEmitter } from 'node:events';
import { type DisconnectReason, EnetClient, type EnetClientOptions } from '@canopy/enet';
import { fetchServerData, type HttpOptions, type ServerData } from './http.ts';
import { type CallEvent, decodeIncoming, type IncomingEvent, isMovement } from './protocol/incoming.ts';
import { LOGON_CALL, type LogonInfo, parseLogon, protonHash, readItemsTank } from './protocol/items.ts';
import { encodeText, parseText } from './protocol/messages.ts';
import {
  type ActionName,
  chatInput,
  encodeAction,
  frontLoginLines,
  type GameLoginFields,
  gameLoginLines,
  joinRequest,
  type Lines,
  parseSendToServer,
} from './protocol/real-client.ts';
import { blankTank, encodeTank, type Tank, TankType } from './protocol/tank.ts';
import {
  type DroppedObject,
  decodeInventory,
  decodeWorld,
  type Inventory,
  type Weather,
  type WorldData,
  type WorldTile,
} from './protocol/world.ts';
import { fetchToken, type TokenRequest } from './token.ts';

/** Everything the bot receives, in one stream `waitFor` reads. */
export type BotEvent = IncomingEvent | { kind: 'disconnect'; reason: DisconnectReason };

export interface BotOptions {
  enet?: EnetClientOptions;
  /** items.dat bytes from an earlier session: no refresh when its hash matches the server's. */
  cachedItems?: Buffer;
  /** Default time a step waits for the server. */
  stepTimeoutMs?: number;
  /** What the login texts claim to be (default 5.51 / 225, the real client's). */
  gameVersion?: string;
  protocol?: number;
  /** The game-server login text's `requestedName` (default `Bot`). */
  requestedName?: string;
  /**
   * Fields of the game-server login text to replace (same key) or add (new key, at the end): whatever an engine
   * under test needs beyond what the real client sends.
   */
  loginFields?: Record<string, string>;
}

export interface Endpoint {
  host: string;
  port: number;
}

export interface LoginResult {
  itemsHash: number;
  /** The GrowID the front named in OnSendToServer. */
  name: string;
  /** Where the front sent us: the hosted server's own port. */
  engine: Endpoint;
  refreshedItems: boolean;
  /** OnSuperMainStartAcceptLogon…'s arguments: items hash, CDN host and path, blocked apps, settings, tribute. */
  logon: LogonInfo;
}

export interface JoinedWorld {
  name: string;
  width: number;
  height: number;
  tiles: WorldTile[];
  doors: WorldData['doors'];
  dropped: { lastUid: number; objects: DroppedObject[] };
  weather: Weather;
  netId: number;
  spawn: { x: number; y: number };
}

/** A game client without a screen. Events: 'call', 'tank', 'text', 'hello', 'disconnect', 'event' (all). */
export class Bot extends EventEmitter {
  enet: EnetClient | null = null;
  netId = -1;
  position = { x: 0, y: 0 };
  world: JoinedWorld | null = null;
  inventory: Inventory | null = null;
  items: Buffer | null;
  itemsHash: number | null = null;
  /** The last OnConsoleMessage text or `action|log` message: what a refusal says. */
  lastConsole = '';
  private readonly opts: BotOptions;

  constructor(opts: BotOptions = {}) {
    super();
    this.opts = opts;
    this.items = opts.cachedItems ?? null;
    this.setMaxListeners(100);
  }

  private get timeout(): number {
    return this.opts.stepTimeoutMs ?? 10_000;
  }

  /** POSTs to server_data.php and parses the answer. */
  serverData(url: string, opts: HttpOptions = {}): Promise<ServerData> {
    return fetchServerData(url, opts);
  }

  /** The login page's token call (see token.ts for its fields). */
  fetchToken(loginUrl: string, r: TokenRequest, opts: HttpOptions = {}): Promise<string> {
    return fetchToken(loginUrl, r, opts);
  }

  /**
   * Logs in as the real client does: type 2 `protocol|225`, `ltoken|…`, `platformID|…` to the front; on
   * OnSendToServer(port, token, user, `ip|doorId|UUIDToken`, lmode, name) reconnects to that port and sends the
   * game-server login text; reads OnSuperMainStartAcceptLogon…; refreshes items.dat when its hash differs.
   */
  async login(front: Endpoint, { token, meta = '' }: { token: string; meta?: string }): Promise<LoginResult> {
    await this.open(front);
    const redirect = this.waitForCall('OnSendToServer');
    this.sendText(2, frontLoginLines({ token, protocol: this.opts.protocol }));
    const call = await redirect;
    const to = parseSendToServer(call.args, front.host);
    // Our engine reads its game token from the UUIDToken: a redirect without one cannot log in.
    if (to.uuidToken === '') throw new Error(`bad OnSendToServer: ${JSON.stringify(call.args)}`);
    const engine = { host: to.host, port: to.port };
    this.closeQuietly();

    await this.open(engine);
    const start = this.waitForCall(LOGON_CALL);
    this.sendText(
      2,
      this.gameLogin({
        // The name the redirect carried (OnSendToServer's last argument): what a server that reads the player's
        // name from tankIDName (Gurotopia) greets and spawns, as the real client fills it in.
        tankIdName: to.name,
        requestedName: this.opts.requestedName,
        protocol: this.opts.protocol,
        gameVersion: this.opts.gameVersion,
        meta,
        user: to.user,
        token: to.token,
        uuidToken: to.uuidToken,
        doorId: to.doorId,
      }),
    );
    const logon = parseLogon((await start).args);
    this.itemsHash = logon.itemsHash;
    const stale = !this.items || protonHash(this.items) !== this.itemsHash;
    if (stale) await this.refreshItems();
    return { itemsHash: this.itemsHash, name: to.name, engine, refreshedItems: stale, logon };
  }

  /** The game-server login text with the `loginFields` option applied. */
  private gameLogin(fields: GameLoginFields): Lines {
    const lines = gameLoginLines(fields);
    const extra = this.opts.loginFields ?? {};
    for (const [key, value] of Object.entries(extra)) {
      const line = lines.find(([k]) => k === key);
      if (line) line[1] = value;
      else lines.push([key, value]);
    }
    return lines;
  }

  /**
   * `action|refresh_item_data` (type 2): items.dat in a type 16 tank, zlib with value = uncompressed size, checked
   * against the announced hash.
   */
  async refreshItems(): Promise<Buffer> {
    const answer = this.waitFor((e) => e.kind === 'tank' && e.tank.type === TankType.itemDatabase);
    this.sendAction('refresh_item_data');
    const e = await answer;
    if (e.kind !== 'tank') throw new Error('unreachable');
    const items = readItemsTank(e.tank);
    if (this.itemsHash !== null && protonHash(items) !== this.itemsHash) {
      throw new Error(`items.dat refresh: hash ${protonHash(items)} differs from the announced ${this.itemsHash}`);
    }
    this.items = items;
    return items;
  }

  /** `action|enter_game` (type 2); resolves with the world menu's text. */
  async enterGame(): Promise<string> {
    const menu = this.waitForCall('OnRequestWorldSelectMenu');
    this.sendAction('enter_game');
    return String((await menu).args[0] ?? '');
  }

  /**
   * `action|join_request` (type 3); resolves with the world (read with the real layout: a server writing another
   * fails here) and our spawn; rejects with the server's message when refused.
   */
  async join(name: string): Promise<JoinedWorld> {
    // Every waiter is registered before sending: the spawn (or a refusal's reason) may share a datagram with
    // what precedes it, and events are emitted as a datagram is read.
    const done = new AbortController();
    const answer = this.waitFor(
      (e) =>
        (e.kind === 'tank' && e.tank.type === TankType.sendMapData) ||
        (e.kind === 'call' && e.call.name === 'OnFailedToEnterWorld'),
      this.timeout,
      done.signal,
    );
    const local = (c: CallEvent) => String(c.args[0] ?? '').includes('type|local');
    const spawn = this.waitForCall('OnSpawn', this.timeout, local, done.signal);
    // The refusal's reason is the console message right after OnFailedToEnterWorld (not one still in flight from
    // an earlier step, such as the menu's "Where would you like to go?").
    let failed = false;
    const reason = this.waitFor(
      (e) => {
        if (e.kind === 'call' && e.call.name === 'OnFailedToEnterWorld') failed = true;
        return failed && e.kind === 'call' && e.call.name === 'OnConsoleMessage';
      },
      this.timeout,
      done.signal,
    );
    for (const p of [answer, spawn, reason]) p.catch(() => {});
    try {
      this.requireEnet().send(joinRequest(name));
      const first = await answer;
      if (first.kind === 'call') {
        const said = await reason.catch(() => null);
        throw new Error(said?.kind === 'call' ? String(said.call.args[0] ?? '') : 'refused');
      }
      if (first.kind !== 'tank') throw new Error('unreachable');
      const data = decodeWorld(first.tank.extended);
      const fields = parseText(String((await spawn).args[0] ?? ''));
      const [px = '0', py = '0'] = (fields.get('posXY') ?? '').split('|');
      this.netId = Number(fields.get('netID') ?? -1);
      this.position = { x: Number(px), y: Number(py) };
      const { name: worldName, width, height, tiles, doors, dropped, weather } = data;
      this.world = {
        name: worldName,
        width,
        height,
        tiles,
        doors,
        dropped,
        weather,
        netId: this.netId,
        spawn: { ...this.position },
      };
      return this.world;
    } finally {
      done.abort();
    }
  }

  /** Sends a movement state (tank type 0) for our own player. */
  move(x: number, y: number, speed: { x?: number; y?: number } = {}): void {
    this.position = { x, y };
    this.sendTank({
      ...blankTank(TankType.state),
      netId: this.netId,
      x,
      y,
      xSpeed: speed.x ?? 0,
      ySpeed: speed.y ?? 0,
    });
  }

  /** Chat in the world: `action|input\n|text|<text>` (type 2). */
  say(text: string): void {
    this.requireEnet().send(chatInput(text));
  }

  /** `action|dialog_return` (type 2) with the dialog's `key|value` lines. */
  dialogReturn(lines: readonly (readonly [string, string | number])[]): void {
    this.sendAction('dialog_return', lines.map(([k, v]) => `${k}|${v}`).join('\n'));
  }

  /** Any action with the message type the real client sends it with; `rest` is its further lines. */
  sendAction(action: ActionName, rest = ''): void {
    this.requireEnet().send(encodeAction(action, rest));
  }

  /** Punches a tile (tank type 3 with the fist, item 18). */
  punch(x: number, y: number): void {
    this.place(x, y, 18);
  }

  /** Places an item on a tile (tank type 3 with the item id). */
  place(x: number, y: number, itemId: number): void {
    this.sendTank({
      ...blankTank(TankType.tileChangeRequest),
      netId: this.netId,
      value: itemId,
      x: this.position.x,
      y: this.position.y,
      punchX: x,
      punchY: y,
    });
  }

  /** `action|quit_to_exit` (type 3); resolves when the world menu comes back. */
  async leave(): Promise<string> {
    const menu = this.waitForCall('OnRequestWorldSelectMenu');
    this.sendAction('quit_to_exit');
    this.world = null;
    return String((await menu).args[0] ?? '');
  }

  /** `action|quit` (type 3): what the real client sends when it closes the game. */
  quit(): void {
    this.sendAction('quit');
  }

  /** Disconnects from the server (ENet DISCONNECT, acknowledged or not). */
  async disconnect(): Promise<void> {
    const enet = this.enet;
    if (!enet) return;
    await enet.disconnect();
  }

  /** Resolves with the first event after now that matches; rejects on time-out or when the connection ends. */
  waitFor(predicate: (e: BotEvent) => boolean, ms = this.timeout, signal?: AbortSignal): Promise<BotEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('event', listener);
        reject(new Error(`timed out after ${ms} ms${this.lastConsole ? ` (last message: ${this.lastConsole})` : ''}`));
      }, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        this.off('event', listener);
        reject(new Error('no longer waited for'));
      });
      const listener = (e: BotEvent) => {
        if (predicate(e)) {
          clearTimeout(timer);
          this.off('event', listener);
          resolve(e);
        } else if (e.kind === 'disconnect') {
          clearTimeout(timer);
          this.off('event', listener);
          reject(new Error(this.lastConsole || `disconnected (${e.reason})`));
        }
      };
      this.on('event', listener);
    });
  }

  /** Waits for a call by name (and an optional check of it). */
  async waitForCall(
    name: string,
    ms = this.timeout,
    check: (c: CallEvent) => boolean = () => true,
    signal?: AbortSignal,
  ): Promise<CallEvent> {
    const e = await this.waitFor((x) => x.kind === 'call' && x.call.name === name && check(x.call), ms, signal);
    if (e.kind !== 'call') throw new Error('unreachable');
    return e.call;
  }

  /** Sends raw text of the given message type (a test's way to send what the real client would not). */
  sendText(type: 2 | 3, lines: readonly (readonly [string, string | number])[] | string): void {
    this.requireEnet().send(encodeText(type, lines));
  }

  sendTank(t: Tank): void {
    this.requireEnet().send(encodeTank(t));
  }

  private requireEnet(): EnetClient {
    const enet = this.enet;
    if (enet?.state !== 'connected') throw new Error('not connected');
    return enet;
  }

  /** Connects a fresh ENet client and resolves once the server's hello arrived. */
  private async open(to: Endpoint): Promise<void> {
    const enet = new EnetClient(this.opts.enet);
    this.enet = enet;
    const hello = this.waitFor((e) => e.kind === 'hello');
    hello.catch(() => {});
    enet.on('packet', (data: Buffer) => this.dispatch(data));
    enet.on('disconnect', (reason: DisconnectReason) => {
      if (this.enet !== enet) return;
      this.publish({ kind: 'disconnect', reason });
    });
    await enet.connect(to.host, to.port);
    await hello;
  }

  /** Leaves the front: it disconnects us anyway once the redirect is out, so no handshake is waited for. */
  private closeQuietly(): void {
    const enet = this.enet;
    this.enet = null;
    enet?.disconnectNow();
  }

  private dispatch(data: Buffer): void {
    // Others' movement is most of what a bot in a busy world receives: with nobody listening it is not decoded.
    if (isMovement(data) && this.listenerCount('tank') === 0 && this.listenerCount('event') === 0) return;
    const e = decodeIncoming(data);
    if (!e) return;
    if (e.kind === 'call' && e.call.name === 'OnConsoleMessage') this.lastConsole = String(e.call.args[0] ?? '');
    // The game's own log line (`action|log\nmsg|…`, type 3): how servers refuse an outdated client or a login.
    if (e.kind === 'text' && e.fields.get('action') === 'log') this.lastConsole = e.fields.get('msg') ?? '';
    if (e.kind === 'tank' && e.tank.type === TankType.inventory) this.inventory = decodeInventory(e.tank.extended);
    this.publish(e);
  }

  private publish(e: BotEvent): void {
    if (e.kind === 'call') this.emit('call', e.call);
    else if (e.kind === 'tank') this.emit('tank', e.tank);
    else if (e.kind === 'text') this.emit('text', e);
    else if (e.kind === 'hello') this.emit('hello');
    else this.emit('disconnect', e.reason);
    this.emit('event', e);
  }
}
