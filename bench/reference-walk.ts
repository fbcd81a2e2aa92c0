// Reference walk: logs in to any Growtopia-protocol server the way the real client 5.51 (protocol 225) does, takes
// a player's first steps, and records every message the server sends, field by field, so two servers (ours and a
// public reference server that works with the real client) can be compared message by message (issue 20).
//
// Steps: front login (`protocol|225`, `ltoken|…`, type 2) -> OnSendToServer -> game-server login text (type 2) ->
// refresh_item_data when the announced hash differs from --items -> enter_game (2) -> join_request (3) -> a move
// (tank 0) -> chat (`action|input\n|text|hi`, 2) -> punches (tank 3, value 18) until a break -> quit_to_exit (3) ->
// quit (3). Each received message keeps its header fields, its call arguments with their wire types, and for world
// data a tolerant reading (it never refuses a layout: it reports what it found, leftovers included).
//
//   node bench/reference-walk.ts walk --host 127.0.0.1 --port <front port> --ltoken <t> [--tank-id-name N]
//        [--world START] [--punches 8] [--items packages/formats/assets/items.dat] [--refresh-always]
//        [--observer-ltoken <t2> --observer-tank-id-name N2] [--out walk.json]
//     (with an observer, a second player joins the world first and records what the walker's steps show others)
//   node bench/reference-walk.ts ltoken-base64 --name N --password P   (a ltoken of the form
//        base64(`_token=&growId=N&password=P&reg=0`), as the login pages of some public servers issue)
//   node bench/reference-walk.ts ltoken-canopy --name N --port <engine game port> --gateway-key <base64>
//        --engine-secret <secret>   (our signed game token, as the gateway's login page issues it)
//   node bench/reference-walk.ts compare a.json b.json   (per step, the two message sequences side by side)
//
// The walk talks ENet with our own client (@canopy/enet: new-packet header, crc32, range coder).

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { inflateSync } from 'node:zlib';
import { gameServerKey, signGameToken } from '@canopy/contract/game-token';
import {
  blankTank,
  EnetClient,
  encodeAction,
  encodeTank,
  encodeText,
  frontLoginLines,
  gameLoginLines,
  protonHash,
  TankType,
} from '@canopy/gtclient';

/** One call argument as sent: its wire type and value. */
interface Arg {
  type: string;
  value: number | string | number[];
}

/** Every field of the 56-byte tank header, as raw as it comes. */
interface TankFields {
  type: number;
  b1: number;
  b2: number;
  b3: number;
  netId: number;
  target: number;
  flags: number;
  f16: number;
  value: number;
  x: number;
  y: number;
  sx: number;
  sy: number;
  f40: number;
  punchX: number;
  punchY: number;
  /** The header's extended-length field. */
  extLen: number;
  /** Bytes after the 60-byte message header (what actually came). */
  after: number;
}

interface WorldSummary {
  version: number;
  flags: number;
  name: string;
  width: number;
  height: number;
  tileCountU32: number;
  gapAfterCount: string;
  tileFlags: Record<string, number>;
  parentsNonZero: number;
  layers: Record<string, number>;
  extras: { x: number; y: number; fg: number; flags: number; hex: string }[];
  door: { x: number; y: number } | null;
  gapAfterTiles: string;
  droppedCount: number;
  lastDroppedUid: number;
  weather: string;
  leftover: number;
  leftoverNonZero: number;
  error?: string;
}

interface Received {
  /** A: the walker; B: the observer. */
  who?: string;
  step: string;
  ms: number;
  channel: number;
  bytes: number;
  msgType: number;
  kind: 'hello' | 'text' | 'tank' | 'call' | 'other';
  /** The raw bytes after the u32 message type of hello/text messages (hex), and the text itself. */
  text?: string;
  textEndsWithNul?: boolean;
  tank?: TankFields;
  call?: { name: string; args: Arg[] };
  world?: WorldSummary;
  /** Tanks that are neither calls nor world data: everything after the header, hex (capped). */
  extHex?: string;
  items?: { zlib: boolean; size: number; hash: number };
}

interface Walk {
  target: string;
  startedAt: string;
  steps: { name: string; sent: string }[];
  received: Received[];
  enet: Record<string, number>[];
  notes: string[];
}

const VARIANT_TYPES: Record<number, string> = { 1: 'float', 2: 'string', 3: 'vec2', 4: 'vec3', 5: 'uint', 9: 'int' };

/** A variant list with each argument's wire type kept (uint 5 vs int 9 matters when comparing). */
function readArgs(b: Buffer): { name: string; args: Arg[] } | null {
  if (b.length < 1) return null;
  const out: Arg[] = [];
  let p = 1;
  for (let i = 0; i < (b[0] ?? 0); i++) {
    if (p + 2 > b.length) return null;
    const type = b[p + 1] ?? 0;
    p += 2;
    const name = VARIANT_TYPES[type] ?? `type${type}`;
    if (type === 2) {
      if (p + 4 > b.length) return null;
      const n = b.readUInt32LE(p);
      if (p + 4 + n > b.length) return null;
      out.push({ type: name, value: b.toString('utf8', p + 4, p + 4 + n) });
      p += 4 + n;
    } else if (type === 3 || type === 4) {
      const n = type === 3 ? 2 : 3;
      if (p + 4 * n > b.length) return null;
      out.push({ type: name, value: Array.from({ length: n }, (_, k) => b.readFloatLE(p + 4 * k)) });
      p += 4 * n;
    } else if (type === 1 || type === 5 || type === 9) {
      if (p + 4 > b.length) return null;
      out.push({
        type: name,
        value: type === 1 ? b.readFloatLE(p) : type === 5 ? b.readUInt32LE(p) : b.readInt32LE(p),
      });
      p += 4;
    } else return null;
  }
  const [first, ...args] = out;
  return first && typeof first.value === 'string' ? { name: first.value, args } : null;
}

function tankFields(p: Buffer): TankFields {
  const t = p.subarray(4);
  return {
    type: t[0] ?? 0,
    b1: t[1] ?? 0,
    b2: t[2] ?? 0,
    b3: t[3] ?? 0,
    netId: t.readInt32LE(4),
    target: t.readInt32LE(8),
    flags: t.readUInt32LE(12),
    f16: t.readFloatLE(16),
    value: t.readInt32LE(20),
    x: t.readFloatLE(24),
    y: t.readFloatLE(28),
    sx: t.readFloatLE(32),
    sy: t.readFloatLE(36),
    f40: t.readFloatLE(40),
    punchX: t.readInt32LE(44),
    punchY: t.readInt32LE(48),
    extLen: t.readUInt32LE(52),
    after: p.length - 60,
  };
}

const hex = (b: Buffer, cap = 96) =>
  b.subarray(0, cap).toString('hex') + (b.length > cap ? `…(+${b.length - cap})` : '');
const MAIN_DOOR = 6;
/** Foregrounds whose extra data the client reads whatever the tile flags say (doors and locks). */
const EXTRA_BY_ITEM = new Set([MAIN_DOOR, 202, 204, 206, 242]);

/** Length of a tile's extra data by its kind byte; -1 when the kind is not known here. */
function extraLength(d: Buffer, p: number, fg: number): number {
  const kind = d[p];
  const str = () => 2 + d.readUInt16LE(p + 1);
  switch (kind) {
    case 1:
      return 1 + str() + 1;
    case 2:
      return 1 + str() + 4;
    case 3:
      return 1 + 1 + 4 + 4 + 4 * d.readUInt32LE(p + 6) + (fg === 5814 ? 24 : 8);
    case 4:
      return 1 + 4 + 1;
    case 8:
      return 2;
    case 9:
      return 5;
    case 0x17:
      return 5;
    case 0x18:
      return 9;
    default:
      return -1;
  }
}

/**
 * Reads world data (all bytes after the 60-byte header, whatever the length field says) without refusing
 * anything: the lock extra may be cut short by a server, so a tile whose extra is unknown ends the reading.
 */
function readWorld(d: Buffer): WorldSummary {
  const s: WorldSummary = {
    version: 0,
    flags: 0,
    name: '',
    width: 0,
    height: 0,
    tileCountU32: 0,
    gapAfterCount: '',
    tileFlags: {},
    parentsNonZero: 0,
    layers: {},
    extras: [],
    door: null,
    gapAfterTiles: '',
    droppedCount: 0,
    lastDroppedUid: 0,
    weather: '',
    leftover: 0,
    leftoverNonZero: 0,
  };
  try {
    s.version = d.readUInt16LE(0);
    s.flags = d.readUInt32LE(2);
    const n = d.readUInt16LE(6);
    s.name = d.toString('latin1', 8, 8 + n);
    let p = 8 + n;
    s.width = d.readUInt32LE(p);
    s.height = d.readUInt32LE(p + 4);
    s.tileCountU32 = d.readUInt32LE(p + 8);
    s.gapAfterCount = d.subarray(p + 12, p + 17).toString('hex');
    p += 17;
    const count = s.width * s.height;
    for (let i = 0; i < count; i++) {
      const fg = d.readUInt16LE(p);
      const bg = d.readUInt16LE(p + 2);
      const parent = d.readUInt16LE(p + 4);
      const flags = d.readUInt16LE(p + 6);
      p += 8;
      if (parent) s.parentsNonZero++;
      const fk = `0x${flags.toString(16).padStart(4, '0')}`;
      s.tileFlags[fk] = (s.tileFlags[fk] ?? 0) + 1;
      const lk = `${fg}/${bg}`;
      s.layers[lk] = (s.layers[lk] ?? 0) + 1;
      if (flags & 2) p += 2;
      if (flags & 1 || EXTRA_BY_ITEM.has(fg)) {
        const len = extraLength(d, p, fg);
        const x = i % s.width;
        const y = Math.floor(i / s.width);
        if (len < 0) throw new Error(`tile ${x},${y} (fg ${fg}): unknown extra kind ${d[p]}`);
        s.extras.push({ x, y, fg, flags, hex: d.subarray(p, p + len).toString('hex') });
        if (fg === MAIN_DOOR && !s.door) s.door = { x, y };
        p += len;
      } else if (fg === MAIN_DOOR && !s.door) s.door = { x: i % s.width, y: Math.floor(i / s.width) };
    }
    s.gapAfterTiles = d.subarray(p, p + 12).toString('hex');
    p += 12;
    s.droppedCount = d.readUInt32LE(p);
    s.lastDroppedUid = d.readUInt32LE(p + 4);
    p += 8;
    // Objects are 16 bytes; a server may write a count it does not follow, so at most what is left is read.
    p += 16 * Math.min(s.droppedCount, Math.floor((d.length - p) / 16));
    s.weather = d.subarray(p, p + 12).toString('hex');
    p += 12;
    s.leftover = Math.max(0, d.length - p);
    s.leftoverNonZero = s.leftover ? d.subarray(p).filter((b) => b !== 0).length : 0;
  } catch (error) {
    s.error = (error as Error).message;
  }
  return s;
}

function describe(p: Buffer, step: string, ms: number, channel: number): Received {
  const msgType = p.length >= 4 ? p.readUInt32LE(0) : -1;
  const r: Received = { step, ms, channel, bytes: p.length, msgType, kind: 'other' };
  if (msgType === 1) {
    r.kind = 'hello';
    r.text = p.subarray(4).toString('hex');
  } else if (msgType === 2 || msgType === 3) {
    r.kind = 'text';
    const body = p.subarray(4);
    r.textEndsWithNul = body[body.length - 1] === 0;
    r.text = body.toString('utf8').replace(/\0+$/, '');
  } else if (msgType === 4 && p.length >= 60) {
    r.kind = 'tank';
    const t = tankFields(p);
    r.tank = t;
    const rest = p.subarray(60);
    if (t.type === TankType.callFunction) {
      const call = readArgs(rest);
      if (call) {
        r.kind = 'call';
        r.call = call;
      } else r.extHex = hex(rest);
    } else if (t.type === TankType.sendMapData) {
      r.world = readWorld(rest);
    } else if (t.type === TankType.itemDatabase) {
      let items = rest;
      let zlib = false;
      try {
        items = inflateSync(rest);
        zlib = true;
      } catch {}
      r.items = { zlib, size: items.length, hash: protonHash(items) };
    } else r.extHex = hex(rest);
  }
  return r;
}

/** One line per message, for the transcript and the comparison. */
function signature(r: Received): string {
  if (r.kind === 'hello') return `hello ${r.bytes}B`;
  if (r.kind === 'text') return `text t${r.msgType} ${JSON.stringify(r.text)}${r.textEndsWithNul ? ' +NUL' : ''}`;
  const t = r.tank;
  if (!t) return `other t${r.msgType} ${r.bytes}B`;
  const head = `ch${r.channel} net=${t.netId} val=${t.value} fl=0x${t.flags.toString(16)} ext=${t.extLen}/${t.after}`;
  if (r.call) {
    const args = r.call.args.map((a) => {
      const v =
        typeof a.value === 'string'
          ? JSON.stringify(a.value.length > 60 ? `${a.value.slice(0, 60)}…` : a.value)
          : JSON.stringify(a.value);
      return `${a.type}:${v}`;
    });
    return `call ${r.call.name}(${args.join(', ')}) ${head}`;
  }
  const more =
    `b1=${t.b1} b2=${t.b2} b3=${t.b3} tgt=${t.target} f16=${t.f16} x=${t.x} y=${t.y} sx=${t.sx} sy=${t.sy} ` +
    `f40=${t.f40} px=${t.punchX} py=${t.punchY}`;
  if (r.world) return `tank4 world ${head} ${JSON.stringify(r.world)}`;
  if (r.items) return `tank16 items ${head} ${JSON.stringify(r.items)}`;
  return `tank${t.type} ${head} ${more}${r.extHex ? ` extra=${r.extHex}` : ''}`;
}

interface WalkOptions {
  host: string;
  port: number;
  ltoken: string;
  tankIdName: string;
  world: string;
  punches: number;
  items: string;
  /** Ask for items.dat even when the announced hash matches --items. */
  refreshAlways: boolean;
  /** A second player's token: they join the world first and record what the walker's steps show them. */
  observer?: { ltoken: string; tankIdName: string };
}

/** One connected player: its ENet client, what it records (tagged with `who`), and waiting on it. */
function playerOf(who: string, result: Walk, clock: { step: string; stepStart: number; lastAt: number }) {
  let client: EnetClient | null = null;
  const waiters = new Set<(r: Received) => void>();
  const mine = (r: Received) => r.who === who && r.step === clock.step;
  const p = {
    who,
    async open(host: string, port: number) {
      const c = new EnetClient();
      c.on('packet', (data: Buffer, channel: number) => {
        clock.lastAt = performance.now();
        const r = describe(Buffer.from(data), clock.step, Math.round(clock.lastAt - clock.stepStart), channel);
        r.who = who;
        result.received.push(r);
        for (const w of waiters) w(r);
      });
      c.on('disconnect', (reason: string) =>
        result.notes.push(`${who} ${clock.step}: ${host}:${port} disconnected (${reason})`),
      );
      await c.connect(host, port);
      client = c;
      return c;
    },
    send: (data: Buffer) => (client as EnetClient | null)?.send(data),
    waitFor: (pred: (r: Received) => boolean, ms = 8000) =>
      new Promise<Received>((resolve, reject) => {
        const found = result.received.find((r) => mine(r) && pred(r));
        if (found) return resolve(found);
        const w = (r: Received) => {
          if (!mine(r) || !pred(r)) return;
          clearTimeout(timer);
          waiters.delete(w);
          resolve(r);
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`${who} ${clock.step}: timed out waiting`));
        }, ms);
        waiters.add(w);
      }),
    /** The front login: resolves with where OnSendToServer sends the player, and what it gives them. */
    async login(o: WalkOptions, ltoken: string) {
      const front = await p.open(o.host, o.port);
      p.send(encodeText(2, frontLoginLines({ token: ltoken })));
      const redirect = await p.waitFor((r) => isCall('OnSendToServer')(r) || /logon_fail/.test(r.text ?? ''));
      if (!redirect.call) throw new Error(`${who}: the front refused: ${redirect.text}`);
      const [port, token, user, address] = redirect.call.args.map((x) => x.value);
      const [ip = '', doorId = '0', uuidToken = ''] = String(address ?? '').split('|');
      await settle(clock, 300, 1500);
      result.enet.push({ ...front.stats });
      front.disconnectNow();
      return { host: ip === '' || ip === '0.0.0.0' ? o.host : ip, port: Number(port), token, user, uuidToken, doorId };
    },
    stats: () => ({ ...(client as EnetClient | null)?.stats }),
    disconnect: () => (client as EnetClient | null)?.disconnect(1000),
  };
  return p;
}

const isCall = (name: string) => (r: Received) => r.call?.name === name;

/** Waits until no player has received anything for `quietMs` (at most `maxMs`). */
async function settle(clock: { lastAt: number }, quietMs = 700, maxMs = 5000) {
  const start = performance.now();
  while (performance.now() - clock.lastAt < quietMs && performance.now() - start < maxMs)
    await new Promise((r) => setTimeout(r, 50));
}

async function walk(o: WalkOptions): Promise<Walk> {
  const result: Walk = {
    target: `${o.host}:${o.port}`,
    startedAt: new Date().toISOString(),
    steps: [],
    received: [],
    enet: [],
    notes: [],
  };
  const clock = { step: 'connect', stepStart: performance.now(), lastAt: performance.now() };
  const begin = (name: string, sent: string) => {
    clock.step = name;
    clock.stepStart = performance.now();
    clock.lastAt = clock.stepStart;
    result.steps.push({ name, sent });
  };
  const gameLogin = async (p: ReturnType<typeof playerOf>, ltoken: string, tankIdName: string) => {
    const to = await p.login(o, ltoken);
    begin(
      `${p.who === 'A' ? '' : `${p.who}:`}game-login`,
      `t2 tankIDName|${tankIdName} … (the real client's 31 fields)`,
    );
    await p.open(to.host, to.port);
    const lines = gameLoginLines({
      tankIdName,
      user: String(to.user ?? 0),
      token: String(to.token ?? 0),
      uuidToken: to.uuidToken,
      doorId: to.doorId,
    });
    p.send(encodeText(2, lines));
    const logon = await p.waitFor(isCall('OnSuperMainStartAcceptLogonHrdxs47254722215a'));
    await settle(clock);
    return Number(logon.call?.args[0]?.value ?? 0) >>> 0;
  };

  // 0. The observer, if any, is in the world before the walker arrives.
  const observer = o.observer ? playerOf('B', result, clock) : undefined;
  if (observer && o.observer) {
    begin('B:front-login', 't2 protocol|225 ltoken|… platformID|0,1,1');
    await gameLogin(observer, o.observer.ltoken, o.observer.tankIdName);
    begin('B:enter_game', 't2 action|enter_game');
    observer.send(encodeAction('enter_game'));
    await observer.waitFor(isCall('OnRequestWorldSelectMenu'));
    await settle(clock);
    begin('B:join_request', `t3 action|join_request name|${o.world} invitedWorld|0`);
    observer.send(encodeAction('join_request', `name|${o.world}\ninvitedWorld|0`));
    await observer.waitFor((r) => r.tank?.type === TankType.sendMapData);
    await settle(clock);
  }

  // 1-2. Front login, then the game-server login text.
  const a = playerOf('A', result, clock);
  begin('front-login', 't2 protocol|225 ltoken|… platformID|0,1,1');
  const announced = await gameLogin(a, o.ltoken, o.tankIdName);
  const cached = protonHash(readFileSync(o.items));
  if (announced !== cached || o.refreshAlways) {
    result.notes.push(`items.dat hash announced ${announced}, ours ${cached}: refreshing as the client would`);
    begin('refresh_item_data', 't2 action|refresh_item_data');
    a.send(encodeAction('refresh_item_data'));
    await a.waitFor((r) => r.tank?.type === TankType.itemDatabase).catch((e) => result.notes.push(String(e)));
    await settle(clock);
  }

  // 3. Enter the game.
  begin('enter_game', 't2 action|enter_game');
  a.send(encodeAction('enter_game'));
  await a.waitFor(isCall('OnRequestWorldSelectMenu'));
  await settle(clock);

  // 4. Join the world.
  begin('join_request', `t3 action|join_request name|${o.world} invitedWorld|0`);
  a.send(encodeAction('join_request', `name|${o.world}\ninvitedWorld|0`));
  const worldMsg = await a.waitFor((r) => r.tank?.type === TankType.sendMapData || isCall('OnFailedToEnterWorld')(r));
  await settle(clock);
  const mineNow = (r: Received) => r.who === 'A' && r.step === clock.step;
  const spawn = result.received.find(
    (r) => mineNow(r) && isCall('OnSpawn')(r) && /type\|local/.test(String(r.call?.args[0]?.value)),
  );
  const netId = Number(/netID\|(-?\d+)/.exec(String(spawn?.call?.args[0]?.value ?? ''))?.[1] ?? -1);
  const setPos = result.received.find((r) => mineNow(r) && isCall('OnSetPos')(r));
  const door = worldMsg.world?.door ?? { x: 0, y: 0 };
  const [px = door.x * 32, py = door.y * 32] = (setPos?.call?.args[0]?.value as number[] | undefined) ?? [];

  // 5. A move where we stand (the server relays or checks it).
  begin('move', `tank0 net=${netId} x=${px} y=${py} flags=0x20`);
  a.send(encodeTank({ ...blankTank(TankType.state), netId, x: px, y: py, stateFlags: 0x20 }));
  await settle(clock, 500, 2000);

  // 6. Chat.
  begin('chat', 't2 action|input |text|hi');
  a.send(encodeAction('input', '|text|hi'));
  await settle(clock);

  // 7. Punch the tile diagonally below-right of the door (dirt in both servers' fresh worlds) until it breaks.
  const target = { x: door.x + 1, y: door.y + 1 };
  for (let i = 1; i <= o.punches; i++) {
    begin(`punch-${i}`, `tank3 net=${netId} val=18 x=${px} y=${py} px=${target.x} py=${target.y}`);
    a.send(
      encodeTank({
        ...blankTank(TankType.tileChangeRequest),
        netId,
        value: 18,
        x: px,
        y: py,
        punchX: target.x,
        punchY: target.y,
      }),
    );
    await settle(clock, 350, 2000);
    const broke = result.received.some(
      (r) => mineNow(r) && r.tank?.type === TankType.tileChangeRequest && r.tank.value === 18,
    );
    if (broke) break;
  }

  // 8. Leave the world, then the game.
  begin('quit_to_exit', 't3 action|quit_to_exit');
  a.send(encodeAction('quit_to_exit'));
  await a.waitFor(isCall('OnRequestWorldSelectMenu')).catch((e) => result.notes.push(String(e)));
  await settle(clock);
  begin('quit', 't3 action|quit');
  a.send(encodeAction('quit'));
  await settle(clock, 700, 3000);
  result.enet.push(a.stats());
  await a.disconnect();
  if (observer) {
    result.enet.push(observer.stats());
    await observer.disconnect();
  }
  return result;
}

function transcript(w: Walk): string {
  const out = [`# ${w.target} ${w.startedAt}`];
  for (const s of w.steps) {
    out.push('', `## ${s.name}  (sent: ${s.sent})`);
    for (const r of w.received.filter((x) => x.step === s.name))
      out.push(`  ${r.who ?? ''} +${r.ms}ms ${signature(r)}`);
  }
  out.push('', ...w.notes.map((n) => `note: ${n}`), `enet: ${JSON.stringify(w.enet)}`);
  return out.join('\n');
}

/** Per step, a's and b's messages by position; a line is marked when the two differ. */
function compare(a: Walk, b: Walk): string {
  const brief = (r: Received | undefined) => {
    if (!r) return '-';
    if (r.call)
      return `${r.call.name}(${r.call.args.map((x) => x.type).join(',')}) net=${r.tank?.netId} val=${r.tank?.value}`;
    if (r.kind === 'text') return `text t${r.msgType} ${(r.text ?? '').split('\n')[0]}`;
    if (r.tank) return `tank${r.tank.type} net=${r.tank.netId} val=${r.tank.value} fl=0x${r.tank.flags.toString(16)}`;
    return r.kind;
  };
  const names = [...new Set([...a.steps, ...b.steps].map((s) => s.name.replace(/-\d+$/, '')))];
  const out = [`a = ${a.target}`, `b = ${b.target}`];
  for (const name of names) {
    for (const who of ['A', 'B']) {
      const of = (w: Walk) => w.received.filter((r) => (r.who ?? 'A') === who && r.step.replace(/-\d+$/, '') === name);
      const ra = of(a);
      const rb = of(b);
      if (ra.length + rb.length === 0) continue;
      out.push('', `## ${name}${who === 'B' ? ' (what the observer B receives)' : ''}`);
      for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
        const x = brief(ra[i]);
        const y = brief(rb[i]);
        out.push(`${x === y ? ' ' : '*'} ${x.padEnd(70)} | ${y}`);
      }
    }
  }
  return out.join('\n');
}

const [command, ...rest] = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: rest,
  allowPositionals: true,
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string' },
    ltoken: { type: 'string' },
    'tank-id-name': { type: 'string', default: '' },
    'refresh-always': { type: 'boolean', default: false },
    'observer-ltoken': { type: 'string' },
    'observer-tank-id-name': { type: 'string', default: '' },
    world: { type: 'string', default: 'START' },
    punches: { type: 'string', default: '8' },
    items: { type: 'string', default: 'packages/formats/assets/items.dat' },
    out: { type: 'string' },
    name: { type: 'string' },
    password: { type: 'string', default: 'hunter22' },
    'gateway-key': { type: 'string' },
    'engine-secret': { type: 'string' },
  },
});

if (command === 'walk') {
  if (!values.port || !values.ltoken) throw new Error('walk needs --port and --ltoken');
  const w = await walk({
    host: values.host,
    port: Number(values.port),
    ltoken: values.ltoken,
    tankIdName: values['tank-id-name'],
    world: values.world,
    punches: Number(values.punches),
    items: values.items,
    refreshAlways: values['refresh-always'],
    observer: values['observer-ltoken']
      ? { ltoken: values['observer-ltoken'], tankIdName: values['observer-tank-id-name'] }
      : undefined,
  });
  if (values.out) writeFileSync(values.out, `${JSON.stringify(w, null, 1)}\n`);
  console.log(transcript(w));
} else if (command === 'ltoken-base64') {
  console.log(Buffer.from(`_token=&growId=${values.name}&password=${values.password}&reg=0`).toString('base64'));
} else if (command === 'ltoken-canopy') {
  if (!values.name || !values.port || !values['gateway-key'] || !values['engine-secret'])
    throw new Error('ltoken-canopy needs --name, --port, --gateway-key and --engine-secret');
  const keys = {
    gateway: Buffer.from(values['gateway-key'], 'base64'),
    server: gameServerKey(values['engine-secret']),
  };
  console.log(
    signGameToken({ port: Number(values.port), server: 'reference-walk', growId: values.name }, keys, Date.now()),
  );
} else if (command === 'compare') {
  const [fa, fb] = positionals;
  if (!fa || !fb) throw new Error('compare needs two walk files');
  console.log(compare(JSON.parse(readFileSync(fa, 'utf8')), JSON.parse(readFileSync(fb, 'utf8'))));
} else {
  console.error('usage: node bench/reference-walk.ts walk|ltoken-base64|ltoken-canopy|compare …');
  process.exit(2);
}
process.exit(0);
