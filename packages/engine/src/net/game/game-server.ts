import { GAME_CLIENT, OUTDATED_CLIENT_MESSAGE, supportedProtocol } from '@canopy/contract/game-client';
import type { HostEvents as EnetEvents, EnetHost } from '@canopy/enet';
import { ITEM, STARTER_ITEMS } from '../../items/item-ids.ts';
import type { Logger } from '../../log.ts';
import { errorMessage } from '../../log.ts';
import type { PlayersRepo } from '../../players/players.repo.ts';
import type { WorldsRepo } from '../../worlds/worlds.repo.ts';
import { type ClientMessage, decodeClientMessage } from '../protocol/decode.ts';
import { MESSAGE, TANK } from '../protocol/message-types.ts';
import { tankHeader } from '../protocol/tank.ts';
import { encodeHello, encodeText, type TextFields } from '../protocol/text.ts';
import { encodeCall } from '../protocol/variant.ts';
import { createAutofarm } from './autofarm.ts';
import { type CommandParts, runCommand } from './commands.ts';
import type { ItemsData } from './items-data.ts';
import { createLiveWorlds } from './live-worlds.ts';
import { checkLoginToken, type NonceBook } from './login.ts';
import { MOVE_BUDGET, takeMove } from './movement.ts';
import { type Cdn, DEFAULT_CDN, logonPackets, setPosCall } from './player-packets.ts';
import { admit, allow, CHAT_LINES, CHAT_WINDOW_MS, COMMAND_LINES, SLOW_DOWN, SLOW_DOWN_COMMANDS } from './rate.ts';
import type { Session } from './session.ts';
import { createWorldFlow } from './world-flow.ts';

/**
 * The text of `action|input\n|text|<text>`: its second line starts with `|`, so it reads as the key '' with
 * the value `text|<text>`; a plain `text|<text>` line is taken too.
 */
const chatText = (fields: TextFields) => {
  const odd = fields.get('');
  return fields.get('text') ?? (odd?.startsWith('text|') ? odd.slice(5) : '');
};

/**
 * The inventory a session holds: the stored stacks, and the fist and wrench the game client always expects
 * (players stored before they were given at registration hold them too; they are never used up).
 */
const heldItems = (stored: readonly (readonly [number, number])[]): [number, number][] => {
  const held = stored.filter(([, n]) => n > 0).map(([id, n]): [number, number] => [id, n]);
  const missing = STARTER_ITEMS.filter((id) => !held.some(([item]) => item === id));
  return [...missing.map((id): [number, number] => [id, 1]), ...held];
};

/** A connected peer must have logged in by then (the client sends its login right after the hello). */
const LOGIN_DEADLINE_MS = 30_000;

/** What the game layer works with. */
export interface GameDeps {
  log: Logger;
  worlds: WorldsRepo;
  players: PlayersRepo;
  /** gameServerKey(the engine's control secret): reads the second MAC of game tokens. */
  serverKey: Buffer;
  items: () => Promise<ItemsData>;
  /** Nonces of the tokens already used (login.ts), kept in the database across sleep, wake and restarts. */
  nonces: NonceBook;
  /** Recent world creations per player id, kept by the caller across sleep and wake (world-quota.ts). */
  worldCreations?: Map<number, number[]>;
  /** Where clients fetch the game's textures (OnSuperMainStartAcceptLogon); the game's CDN by default. */
  cdn?: Cdn | undefined;
  /** The live config (creators.json, server-config.json), re-read by the engine's reload. */
  config: () => { creators: readonly string[]; autofarmDelay: number };
  /** Called whenever players log in or out or move between worlds. */
  playersChanged: () => void;
  now?: () => number;
}

/** The game server over one ENet host: the flow of docs/game-protocol.md, steps 5 to 13. */
export function createGameServer(deps: GameDeps) {
  const { log, players } = deps;
  const now = deps.now ?? Date.now;
  const { nonces } = deps;
  const sessions = new Map<number, Session>();
  const byName = new Map<string, Session>();
  const live = createLiveWorlds(deps.worlds, log);
  let host: EnetHost | undefined;
  let nextNetId = 1;
  /** The items.dat of this wake once a login has loaded it (deps.items() caches the same one). */
  let loadedItems: ItemsData | undefined;

  const send = (s: Session, data: Buffer) => {
    if (!s.closing) host?.send(s.peer, data);
  };
  const sendUnreliable = (s: Session, data: Buffer) => {
    if (!s.closing) host?.sendUnreliable(s.peer, data);
  };
  const consoleMessage = (s: Session, text: string) => send(s, encodeCall('OnConsoleMessage', [text]));
  // Worlds hold net ids; every relay looks its players up here (a scan of the sessions made a move cost O(n²)).
  const byNetId = new Map<number, Session>();
  const flow = createWorldFlow({
    deps,
    live,
    send,
    sendUnreliable,
    consoleMessage,
    sessionOf: (netId) => byNetId.get(netId),
    // Farming stops with the player's stay in the world (autofarm is made below: called only later).
    leaving: (s) => autofarm.stop(s),
    items: () => loadedItems,
    online: () => byName.size,
  });

  const isCreator = (s: Session) => {
    const name = s.name?.toLowerCase();
    return name !== undefined && deps.config().creators.some((c) => c.toLowerCase() === name);
  };
  const autofarm = createAutofarm({
    delayMs: () => deps.config().autofarmDelay,
    tileAt: (s, x, y) => flow.tileAt(s, x, y),
    holds: (s, id) => s.inventory.some(([item, n]) => item === id && n > 0),
    act: (s, x, y, item) =>
      flow.tileChange(s, tankHeader({ tankType: TANK.tileChange, value: item, punchX: x, punchY: y })),
    consoleMessage,
  });
  const commandParts: CommandParts = {
    isCreator,
    consoleMessage,
    give(s, itemId, amount) {
      const given = players.giveItem(s.name as string, itemId, amount)?.given ?? 0;
      reloadInventory(s);
      return given;
    },
    itemExists: async (id) => (await deps.items()).has(id),
    warp: (s, world) => flow.join(s, world),
    kick: (name, reason) => kick(name, reason),
    broadcast: (text) => broadcast(text),
    toggleAutofarm: (s) => autofarm.toggle(s),
    audit: (line) => log.info(line),
  };

  /** The session takes the stored inventory (after an edit or a give) and, in a world, gets it again. */
  function reloadInventory(s: Session) {
    const player = players.get(s.name as string);
    if (!player) return;
    s.inventory = heldItems(player.inventory);
    flow.resendInventory(s);
  }
  function kick(name: string, reason: string): boolean {
    const s = byName.get(name.toLowerCase());
    if (!s) return false;
    drop(s, `You have been disconnected: ${reason}`);
    return true;
  }
  function broadcast(message: string): number {
    for (const s of byName.values()) consoleMessage(s, message);
    return byName.size;
  }

  /** Says why, then lets the peer go once that is sent. */
  const drop = (s: Session, reason: string) => {
    if (s.closing) return;
    consoleMessage(s, reason);
    s.closing = true;
    leaveGame(s);
    host?.disconnect(s.peer, true);
  };

  const leaveGame = (s: Session) => {
    flow.leaveWorld(s);
    if (s.name && byName.get(s.name.toLowerCase()) === s) {
      byName.delete(s.name.toLowerCase());
      log.info(`${s.name} left the game`);
      deps.playersChanged();
    }
  };

  const login = async (s: Session, fields: TextFields) => {
    if (s.loginTried) return; // one login per peer
    s.loginTried = true;
    // Before the token is spent: an updated client can use the same sign-in again.
    if (!supportedProtocol(fields.get('protocol'))) return refuseLogin(s, OUTDATED_CLIENT_MESSAGE);
    const checked = checkLoginToken(fields.get('UUIDToken'), deps.serverKey, nonces, now());
    if ('refused' in checked) return refuseLogin(s, checked.refused);
    const player = players.get(checked.growId);
    if (!player) return refuseLogin(s, 'No such GrowID on this server.');
    if (player.banned) return refuseLogin(s, 'This GrowID is banned from this server.');
    const items = await deps.items();
    loadedItems = items;
    if (s.closing) return;
    const older = byName.get(player.name.toLowerCase());
    if (older) drop(older, 'You logged in from somewhere else.');
    s.name = player.name;
    s.userId = player.id;
    const country = fields.get('country')?.toLowerCase();
    if (country && /^[a-z]{2}$/.test(country)) s.country = country;
    clearTimeout(s.loginTimer);
    s.inventory = heldItems(player.inventory);
    byName.set(player.name.toLowerCase(), s);
    log.info(`${player.name} logged in`);
    deps.playersChanged();
    for (const packet of logonPackets(items.hash, deps.cdn ?? DEFAULT_CDN, GAME_CLIENT.protocol, now()))
      send(s, packet);
  };

  /**
   * A refused login, as the references answer it: the reason in the client's log (`action|log`), then
   * `action|logon_fail`, which makes the client stop; the console line too, for clients that show that instead.
   */
  const refuseLogin = (s: Session, reason: string) => {
    if (s.closing) return;
    send(s, encodeText(MESSAGE.game, ['action|log', `msg|${reason}`]));
    consoleMessage(s, reason);
    send(s, encodeText(MESSAGE.game, ['action|logon_fail']));
    s.closing = true;
    host?.disconnect(s.peer, true);
  };

  /**
   * What each `action|` text does. The real client sends some on message type 2 (enter_game, refresh_item_data,
   * input, dialog_return) and others on type 3 (join_request, quit_to_exit, quit), so both types come here
   * (docs/game-protocol.md, "Messages"). A Map, so that `action|constructor` names nothing.
   */
  const actions = new Map<string, (s: Session, fields: TextFields) => unknown>([
    [
      'refresh_item_data',
      async (s) => {
        if (s.itemsSent) return;
        s.itemsSent = true;
        const items = await deps.items();
        send(s, flow.itemsDatPacket(items));
      },
    ],
    ['enter_game', (s) => flow.enterGame(s)],
    ['join_request', (s, fields) => flow.join(s, fields.get('name') ?? '')],
    [
      'input',
      (s, fields) => {
        const text = chatText(fields).trim();
        if (!text) return;
        // Commands have a budget of their own: a player's chat does not use up the commands, nor the reverse.
        const command = text.startsWith('/');
        const times = command ? s.commandTimes : s.chatTimes;
        if (!allow(times, command ? COMMAND_LINES : CHAT_LINES, CHAT_WINDOW_MS, now()))
          return consoleMessage(s, command ? SLOW_DOWN_COMMANDS : SLOW_DOWN);
        return command ? runCommand(s, text, commandParts) : flow.chat(s, text);
      },
    ],
    [
      'quit_to_exit',
      (s) => {
        flow.leaveWorld(s);
        flow.worldMenu(s);
      },
    ],
    [
      'quit',
      (s) => {
        s.closing = true;
        leaveGame(s);
        host?.disconnect(s.peer, true);
      },
    ],
  ]);

  const handle = async (s: Session, message: ClientMessage) => {
    if (message.kind !== 'tank') {
      const action = message.fields.get('action');
      // The login text is the only text without an action; it comes on type 2.
      if (action === undefined) return message.kind === 'text' ? login(s, message.fields) : undefined;
      if (!s.name) return;
      return actions.get(action)?.(s, message.fields);
    }
    if (!s.name || !s.world) return;
    if (message.header.tankType === TANK.state) {
      // A position the player could not have reached is not taken (nor relayed): the reach of punches and
      // placing is measured from the accepted one, and the client is put back there.
      if (!takeMove(s, s.world, message.header, now())) return send(s, setPosCall(s));
      return flow.move(s, message.header);
    }
    if (message.header.tankType === TANK.tileChange) {
      const { punchX, punchY, value } = message.header;
      // The first punch after /autofarm picks the tile the server farms (autofarm.ts).
      if ((await flow.tileChange(s, message.header)) && value === ITEM.fist) autofarm.punched(s, punchX, punchY);
    }
  };

  const events: EnetEvents = {
    connect(peer) {
      const s: Session = {
        peer,
        netId: nextNetId++,
        loginTried: false,
        x: 0,
        y: 0,
        movedAt: now(),
        moveBudget: MOVE_BUDGET,
        chatTimes: [],
        commandTimes: [],
        inventory: [],
        rate: { start: now(), count: 0 },
        closing: false,
        country: 'us',
        userId: 0,
      };
      s.loginTimer = setTimeout(() => {
        if (!s.name) drop(s, 'Login took too long.');
      }, LOGIN_DEADLINE_MS);
      s.loginTimer.unref();
      sessions.set(peer, s);
      byNetId.set(s.netId, s);
      host?.send(peer, encodeHello());
    },
    receive(peer, data) {
      const s = sessions.get(peer);
      if (!s || s.closing) return;
      const verdict = admit(s.rate, now());
      if (verdict === 'cut') return drop(s, 'Too many packets.');
      if (verdict === 'drop') return;
      const message = decodeClientMessage(data);
      if (!message) return log.debug(`Dropped a malformed packet of ${data.length} bytes from peer ${peer}`);
      // A handler's failure is this packet's problem, never the engine's.
      handle(s, message).catch((error) => log.error(`Game packet from peer ${peer} failed: ${errorMessage(error)}`));
    },
    disconnect(peer) {
      const s = sessions.get(peer);
      if (!s) return;
      sessions.delete(peer);
      clearTimeout(s.loginTimer);
      leaveGame(s);
      byNetId.delete(s.netId);
    },
  };

  return {
    events,
    attach(h: EnetHost | undefined) {
      host = h;
    },
    sessionCount: () => sessions.size,
    onlinePlayers: () => [...byName.values()].map((s) => s.name as string),
    playersInWorld: (world: string) => live.playersIn(world),
    kick,
    broadcast,
    /** A control API edit of a world reaches the players in it (world-flow.ts, worldEdited). */
    worldEdited: (name: string) => flow.worldEdited(name),
    /** A control API edit of a player reaches their session: the stored inventory replaces the one held. */
    playerEdited(name: string) {
      const s = byName.get(name.toLowerCase());
      if (s) reloadInventory(s);
    },
    saveAll: () => live.saveAll(),
    /** Writes one world's unsaved game changes now (before a control API read or conditional write of it). */
    flushWorld: (name: string) => live.flush(name),
    /** Everyone leaves (worlds saved) and every peer is told to go. */
    disconnectAll() {
      for (const s of sessions.values()) {
        clearTimeout(s.loginTimer);
        leaveGame(s);
        s.closing = true;
        host?.disconnect(s.peer, false);
      }
      sessions.clear();
      byNetId.clear();
    },
  };
}

export type GameServer = ReturnType<typeof createGameServer>;
