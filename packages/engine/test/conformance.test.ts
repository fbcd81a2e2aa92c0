// Conformance with the real client 5.51 / protocol 225 (issue 20), against a real engine process over UDP with the
// game client's "new packet" ENet header (@canopy/enet's EnetClient; the engine's production mode).
//
// Every byte this file sends or expects is written here by hand from the documented layouts: the domain notes
// (../shared/docs/gtps-domain.md, "ENet as Growtopia uses it", "Packets", "What the real client sends and
// expects") and the reference facts gathered from Gurotopia (GURO), GrowServer (GS), GTProxy (PROXY) and GrowDocs.
// Nothing comes from the engine's encoders or from @canopy/gtclient's decoders, so a wrong assumption shared by
// both cannot pass here. One test per point of issue 20 where it applies to the engine (point 3 is the gateway's).
//
// Not confirmed by any reference, so left open here (see the comments at each use):
// - the middle fields of the game-server login text and their order (only the first six and the last five are named
//   by the notes);
// - the weather trailer's current-weather word (GrowDocs: the current weather; GrowServer writes 0) and its last
//   6 bytes (unknown; written as zeros by every reference);
// - the world data version (GrowServer 0x14, Gurotopia 0) and world flags (GrowServer 0x40, Gurotopia 0);
// - the main door's flags beyond 0x0001 (GrowServer adds PUBLIC 0x0080);
// - how an outdated client is told: the game's own `action|log` + `action|logon_fail` (GURO lineage, GS) or an
//   OnConsoleMessage; both are accepted;
// - what "autofarm delay" means: no reference defines it, so point 7 checks the creator list only.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { engineConfigFiles } from '@canopy/contract';
import { type DisconnectReason, EnetClient } from '@canopy/enet';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';
import { testToken } from './support/game-client.ts';

// ---- bytes, written from the layouts -------------------------------------------------------------------------

const u16 = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** Types 2 and 3: u32 type, `key|value` lines joined by `\n`, one NUL. */
const text = (type: 2 | 3, body: string) => Buffer.concat([u32(type), Buffer.from(body, 'latin1'), Buffer.from([0])]);

/** A tank message: u32 4, then the 56-byte header at the documented offsets (tank offset + 4). */
function tank(f: { type: number; netId?: number; value?: number; x?: number; y?: number; px?: number; py?: number }) {
  const b = Buffer.alloc(60);
  b.writeUInt32LE(4, 0);
  b[4] = f.type;
  b.writeInt32LE(f.netId ?? 0, 8);
  b.writeInt32LE(f.value ?? 0, 24);
  b.writeFloatLE(f.x ?? 0, 28);
  b.writeFloatLE(f.y ?? 0, 32);
  b.writeInt32LE(f.px ?? 0, 48);
  b.writeInt32LE(f.py ?? 0, 52);
  return b;
}

/** The game-server login text of the real client 5.51 (domain notes, step 6; middle fields: see the header). */
function gameLogin(token: string, protocol = 225, gameVersion = '5.51') {
  return text(
    2,
    [
      'tankIDName|',
      'tankIDPass|',
      'requestedName|Sprout',
      'f|1',
      `protocol|${protocol}`,
      `game_version|${gameVersion}`,
      'fz|22243512',
      'cbits|1024',
      'player_age|20',
      'GDPR|2',
      'FCMToken|',
      'category|_-5100',
      'totalPlaytime|0',
      'klv|0000000000000000000000000000000000000000000000000000000000000000',
      'hash2|0',
      'meta|conformance',
      'fhash|-716928004',
      'rid|00000000000000000000000000000000',
      'platformID|0,1,1',
      'deviceVersion|0',
      'country|us',
      'hash|0',
      'mac|02:00:00:00:00:00',
      'wk|00000000000000000000000000000000',
      'zf|0',
      'lmode|1',
      'user|0',
      'token|0',
      // Our engine reads its game token where the front put it in OnSendToServer: the UUIDToken.
      `UUIDToken|${token}`,
      'doorID|0',
      'aat|2',
    ].join('\n'),
  );
}

/** One variant-list argument with its type code: 1 float, 2 string, 3 vec2, 4 vec3, 5 u32, 9 i32. */
type Arg = { type: number; value: number | string | number[] };

/** What arrived, read by hand: message type, text, tank header fields, extended data, call name and arguments. */
interface Msg {
  type: number;
  raw: Buffer;
  text?: string;
  tank?: { type: number; netId: number; flags: number; value: number; px: number; py: number; extLength: number };
  ext?: Buffer;
  call?: { name: string; args: Arg[] };
}

function readArgs(b: Buffer): Arg[] | undefined {
  const out: Arg[] = [];
  let p = 1;
  for (let i = 0; i < (b[0] ?? 0); i++) {
    const type = b[p + 1] ?? 0;
    p += 2;
    if (type === 2) {
      const n = b.readUInt32LE(p);
      out.push({ type, value: b.toString('latin1', p + 4, p + 4 + n) });
      p += 4 + n;
    } else if (type === 1 || type === 5 || type === 9) {
      out.push({ type, value: type === 1 ? b.readFloatLE(p) : type === 5 ? b.readUInt32LE(p) : b.readInt32LE(p) });
      p += 4;
    } else if (type === 3 || type === 4) {
      const n = type === 3 ? 2 : 3;
      out.push({ type, value: Array.from({ length: n }, (_, k) => b.readFloatLE(p + 4 * k)) });
      p += 4 * n;
    } else return undefined;
  }
  return out;
}

function read(raw: Buffer): Msg {
  const m: Msg = { type: raw.readUInt32LE(0), raw };
  if (m.type === 2 || m.type === 3) m.text = raw.toString('latin1', 4).replace(/\0[\s\S]*$/, '');
  if (m.type === 4 && raw.length >= 60) {
    const extLength = raw.readUInt32LE(56);
    m.tank = {
      type: raw[4] ?? 0,
      netId: raw.readInt32LE(8),
      flags: raw.readUInt32LE(16),
      value: raw.readInt32LE(24),
      px: raw.readInt32LE(48),
      py: raw.readInt32LE(52),
      extLength,
    };
    m.ext = raw.subarray(60, 60 + extLength);
    if (m.tank.type === 1) {
      const args = readArgs(m.ext);
      const [name, ...rest] = args ?? [];
      if (name?.type === 2) m.call = { name: String(name.value), args: rest };
    }
  }
  return m;
}

const argValues = (m: Msg) => m.call?.args.map((a) => a.value) ?? [];
const describeMsg = (m: Msg) => m.call?.name ?? (m.tank ? `tank${m.tank.type}` : (m.text ?? `type${m.type}`));

/** One client connection: everything received, in order. */
class Conn {
  readonly got: Msg[] = [];
  reason: DisconnectReason | null = null;
  private readonly enet = new EnetClient({ timeoutMs: 30_000 });
  private readonly waiters = new Set<() => void>();

  static async open(port: number): Promise<Conn> {
    const c = new Conn();
    c.enet.on('packet', (data: Buffer) => {
      if (data.length >= 4) c.got.push(read(Buffer.from(data)));
      c.wake();
    });
    c.enet.on('disconnect', (reason: DisconnectReason) => {
      c.reason = reason;
      c.wake();
    });
    await c.enet.connect('127.0.0.1', port);
    return c;
  }

  private wake() {
    for (const w of this.waiters) w();
  }

  send(b: Buffer) {
    this.enet.send(b);
  }

  get mark() {
    return this.got.length;
  }

  /** The first message from index `from` matching `pred`. */
  next(pred: (m: Msg) => boolean, from = 0, ms = 15_000): Promise<Msg> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.got.slice(from).find(pred);
        if (!found && this.reason === null) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        if (found) resolve(found);
        else
          reject(new Error(`disconnected (${this.reason}); got ${this.got.slice(from).map(describeMsg).join(', ')}`));
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`nothing matched in ${ms} ms; got ${this.got.slice(from).map(describeMsg).join(', ')}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  call(name: string, from = 0, ms?: number) {
    return this.next((m) => m.call?.name === name, from, ms);
  }

  /** Resolves once the engine ended the connection. */
  async ended(ms = 15_000): Promise<DisconnectReason> {
    const deadline = Date.now() + ms;
    while (this.reason === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (this.reason === null) throw new Error('still connected');
    return this.reason;
  }

  close() {
    this.enet.disconnectNow();
  }
}

// ---- the engine --------------------------------------------------------------------------------------------------

const PROTON_SEED = 0x55555555;
const proton = (b: Buffer) => {
  let h = PROTON_SEED;
  for (const x of b) h = ((h >>> 27) + (h << 5) + x) >>> 0;
  return h;
};
const LOGON = 'OnSuperMainStartAcceptLogonHrdxs47254722215a';

describe('conformance with the real client 5.51 (protocol 225)', () => {
  const dataDir = tempDataDir();
  let engine: RunningEngine;
  const conns: Conn[] = [];
  const start = () =>
    startEngine({ dataDir, args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0'] });
  const register = async (name: string) => {
    const from = engine.lines.length;
    await engine.request('POST', '/console', { command: `register ${name} hunter22` });
    await engine.waitForLine(/Registered|already exists/, from);
  };
  /** Connects and waits for the hello: u32 1, then 0-4 zero bytes. */
  const connect = async () => {
    const c = await Conn.open(engine.gamePort);
    conns.push(c);
    await c.next((m) => m.type === 1);
    return c;
  };
  /** Connects, logs in with the 5.51 text and waits for the logon call. */
  const loggedIn = async (token: string) => {
    const c = await connect();
    c.send(gameLogin(token));
    const logon = await c.call(LOGON);
    return { c, logon };
  };

  before(async () => {
    // The creator list before start (point 7): Cre is a creator, Sprout is not.
    writeFileSync(join(dataDir, engineConfigFiles.creators), '["Cre"]\n');
    engine = await start();
    for (const name of ['Sprout', 'Cre', 'Oldie', 'Spent']) await register(name);
    await engine.waitForLine(/Built effective-items\.dat/);
  });
  after(async () => {
    for (const c of conns) c.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(dataDir);
  });

  let sprout: Conn;
  let logonHash = 0;

  it('hello: the engine greets a new-packet client with message type 1 and at most 4 zero bytes', async () => {
    const c = await connect();
    const hello = c.got.find((m) => m.type === 1);
    assert.ok(hello);
    assert.ok(hello.raw.length >= 4 && hello.raw.length <= 8, `hello is ${hello.raw.toString('hex')}`);
    assert.ok(hello.raw.subarray(4).every((b) => b === 0));
    c.close();
  });

  it('point 4: the 5.51 login text on type 2 gets OnSuperMainStartAcceptLogon with the CDN, cache path and proto=225', async () => {
    const { c, logon } = await loggedIn(testToken('Sprout'));
    sprout = c;
    // A call: tank type 1, netId -1, flag 8 (extended data), the delay in the value field (0).
    assert.deepEqual(
      [logon.tank?.type, logon.tank?.netId, (logon.tank?.flags ?? 0) & 8, logon.tank?.value],
      [1, -1, 8, 0],
    );
    const types = logon.call?.args.map((a) => a.type) ?? [];
    // GURO (5.51): u32 hash, 4 strings; GS adds a u32 player tribute hash.
    assert.deepEqual(types.slice(0, 5), [5, 2, 2, 2, 2]);
    assert.ok(types.length === 5 || (types.length === 6 && types[5] === 5), `argument types ${types}`);
    const [hash, cdnHost, cdnPath, , settings] = argValues(logon);
    logonHash = Number(hash);
    assert.equal(cdnHost, 'ubistatic-a.akamaihd.net');
    assert.match(String(cdnPath), /^[^/].*\/cache\/$/);
    assert.match(String(settings), /^proto=225\|/);
  });

  it('point 4: action|refresh_item_data on type 2 gets tank 16: zlib items.dat, value = uncompressed size, the announced hash', async () => {
    const from = sprout.mark;
    sprout.send(text(2, 'action|refresh_item_data'));
    const items = await sprout.next((m) => m.tank?.type === 16, from);
    const data = inflateSync(items.ext ?? Buffer.alloc(0));
    assert.equal(items.tank?.value, data.length, 'value field = uncompressed size');
    assert.equal(items.tank?.extLength, items.raw.length - 60);
    assert.equal(proton(data), logonHash, 'the Proton hash announced in the logon call');
  });

  it('point 1: action|enter_game on type 2 gets SetHasGrowID, OnSetBux and the world menu in the current format', async () => {
    const from = sprout.mark;
    sprout.send(text(2, 'action|enter_game'));
    const menu = await sprout.call('OnRequestWorldSelectMenu', from);
    assert.match(String(argValues(menu)[0]), /^add_filter\|\n(add_heading\|[^\n]*\|\n|add_floater\|[^\n]+\n)*$/);
    const growId = await sprout.call('SetHasGrowID', from, 1000);
    assert.deepEqual(argValues(growId).slice(0, 2), [1, 'Sprout']);
    const bux = await sprout.call('OnSetBux', from, 1000);
    assert.equal(bux.call?.args[0]?.type, 9, 'gems as an i32');
  });

  let door = { x: 0, y: 0 };
  let netId = 0;

  it('point 2: action|join_request on type 3 gets world data in the real layout, byte for byte', async () => {
    const from = sprout.mark;
    sprout.send(text(3, 'action|join_request\nname|CONFORM\ninvitedWorld|0'));
    const world = await sprout.next((m) => m.tank?.type === 4, from);
    assert.equal(world.tank?.flags, 8, 'flag 8: extended data');
    assert.equal(world.tank?.extLength, world.raw.length - 60);
    const got = world.ext ?? Buffer.alloc(0);
    const version = got.readUInt16LE(0);
    const flags = got.readUInt32LE(2);
    assert.ok(version === 0x14 || version === 0, `world version ${version}`);
    // A fresh world: 100 x 60, the generator's rows (sky, surface, dirt, bedrock), the main door on the surface.
    const name = Buffer.from('CONFORM');
    const head = Buffer.concat([u16(version), u32(flags), u16(name.length), name, u32(100), u32(60), u32(6000)]);
    assert.deepEqual(got.subarray(0, head.length), head, 'header');
    assert.deepEqual(got.subarray(head.length, head.length + 5), Buffer.alloc(5), '5 zero bytes after the count');
    // Walk the tiles: fg and bg are the world's; everything else is rebuilt from the layout and compared below.
    const tiles: Buffer[] = [];
    const doors: number[] = [];
    let p = head.length + 5;
    for (let i = 0; i < 6000; i++) {
      const fg = got.readUInt16LE(p);
      const bg = got.readUInt16LE(p + 2);
      if (fg === 6) {
        doors.push(i);
        const doorFlags = got.readUInt16LE(p + 6);
        assert.equal(doorFlags & 0x0001, 0x0001, 'the door says it has extra data');
        assert.equal(doorFlags & ~0x0081, 0, 'EXTRA, optionally PUBLIC (GS), nothing else');
        // Main door: kind 1, u16 length 4, "EXIT", u8 0 (public).
        tiles.push(Buffer.concat([u16(6), u16(bg), u16(0), u16(doorFlags), hex('01 0400 45584954 00')]));
        p += 16;
      } else {
        tiles.push(Buffer.concat([u16(fg), u16(bg), u16(0), u16(0)]));
        p += 8;
      }
    }
    assert.equal(doors.length, 1, 'one main door');
    const doorIndex = doors[0] ?? 0;
    door = { x: doorIndex % 100, y: Math.floor(doorIndex / 100) };
    assert.equal(door.y, 23, 'on the surface (row 24 is the first of dirt)');
    const current = got.readUInt16LE(p + 12 + 8 + 4);
    assert.ok(current === 41 || current === 0, `current weather ${current}`);
    const expected = Buffer.concat([
      head,
      Buffer.alloc(5),
      ...tiles,
      Buffer.alloc(12), // after the tiles
      u32(0), // dropped objects
      u32(0), // last dropped uid
      u16(41), // base weather: none
      u16(0), // flag (GS: 0 when the weather is 41)
      u16(current),
      Buffer.alloc(6),
    ]);
    assert.equal(got.length, expected.length, 'the data ends where the layout ends');
    assert.deepEqual(got, expected);
    // The generated shape: bedrock under the door and on the bottom rows, air above the surface.
    const fgAt = (x: number, y: number) => (tiles[y * 100 + x] as Buffer).readUInt16LE(0);
    assert.equal(fgAt(door.x, door.y + 1), 8);
    for (let x = 0; x < 100; x++) assert.equal(fgAt(x, 59), 8);
    assert.equal(fgAt(0, 0), 0);
  });

  it('point 5: after join: OnSpawn (value -1, onlineID|, type|local), OnSetClothing, state, OnCountryState, OnSetPos, fist and wrench', async () => {
    const spawn = await sprout.next((m) => m.call?.name === 'OnSpawn' && /type\|local/.test(String(argValues(m)[0])));
    assert.deepEqual([spawn.tank?.netId, spawn.tank?.value], [-1, -1], 'netId -1, delay -1');
    const lines = String(argValues(spawn)[0]).split('\n');
    assert.deepEqual(
      lines.filter((l) => l !== '').map((l) => l.slice(0, l.indexOf('|'))),
      [
        'spawn',
        'netID',
        'userID',
        'colrect',
        'posXY',
        'name',
        'country',
        'invis',
        'mstate',
        'smstate',
        'onlineID',
        'type',
      ],
    );
    assert.ok(lines.includes('onlineID|'));
    assert.ok(lines.includes('type|local'));
    netId = Number(lines.find((l) => l.startsWith('netID|'))?.slice(6));
    assert.ok(netId > 0);
    // posXY in pixels at the door (GS; GURO sends tiles).
    assert.ok(lines.includes(`posXY|${door.x * 32}|${door.y * 32}`), lines.join(' / '));
    const clothing = await sprout.call('OnSetClothing');
    assert.equal(clothing.tank?.netId, netId);
    assert.deepEqual(clothing.call?.args.map((a) => a.type).slice(0, 5), [4, 4, 4, 5, 4]);
    const state = await sprout.next((m) => m.tank?.type === 20 && m.tank.netId === netId);
    assert.equal(state.raw.readFloatLE(4 + 16), 125, 'character state: 125.0 at tank offset 16');
    const country = await sprout.call('OnCountryState');
    assert.equal(country.tank?.netId, netId);
    assert.match(String(argValues(country)[0]), /^[a-z]{2}(\|.*)?$/);
    const pos = await sprout.call('OnSetPos');
    assert.equal(pos.tank?.netId, netId);
    assert.deepEqual(argValues(pos)[0], [door.x * 32, door.y * 32]);
    // Inventory (tank 9): u8 version 1, u32 backpack size, u16 count, then u16 id, u8 amount, u8 flags.
    const inv = await sprout.next((m) => m.tank?.type === 9);
    const ext = inv.ext ?? Buffer.alloc(0);
    assert.equal(ext[0], 1);
    const count = ext.readUInt16LE(5);
    assert.equal(ext.length, 7 + 4 * count);
    const ids = Array.from({ length: count }, (_, i) => ext.readUInt16LE(7 + 4 * i));
    assert.ok(ids.includes(18) && ids.includes(32), `a new player holds the fist and the wrench: ${ids}`);
  });

  it('point 1: chat as action|input on type 2 comes back as OnTalkBubble and OnConsoleMessage', async () => {
    const from = sprout.mark;
    sprout.send(text(2, 'action|input\n|text|hello conformance'));
    const bubble = await sprout.call('OnTalkBubble', from);
    assert.deepEqual(argValues(bubble).slice(0, 2), [netId, 'hello conformance']);
    const line = await sprout.next(
      (m) => m.call?.name === 'OnConsoleMessage' && String(argValues(m)[0]).includes('hello conformance'),
      from,
    );
    assert.match(String(argValues(line)[0]), /Sprout/);
  });

  it('point 5: a punch (tank 3, value 18) gets tile damage (tank 8, value 6) at the tile', async () => {
    const from = sprout.mark;
    const tile = { x: door.x + 1, y: door.y + 1 }; // dirt beside the bedrock under the door
    sprout.send(tank({ type: 3, netId, value: 18, x: door.x * 32, y: door.y * 32, px: tile.x, py: tile.y }));
    const hit = await sprout.next((m) => m.tank?.type === 8, from);
    assert.deepEqual([hit.tank?.netId, hit.tank?.value, hit.tank?.px, hit.tank?.py], [netId, 6, tile.x, tile.y]);
  });

  it('point 1: action|quit_to_exit on type 3 brings the world menu back', async () => {
    const from = sprout.mark;
    sprout.send(text(3, 'action|quit_to_exit'));
    const menu = await sprout.call('OnRequestWorldSelectMenu', from);
    assert.match(String(argValues(menu)[0]), /^add_filter\|/);
  });

  it('point 7: creator rights follow the creator list (/warp is staff-only in GrowServer)', async () => {
    const { c: cre } = await loggedIn(testToken('Cre'));
    let from = cre.mark;
    cre.send(text(2, 'action|enter_game'));
    await cre.call('OnRequestWorldSelectMenu', from);
    from = cre.mark;
    cre.send(text(2, 'action|input\n|text|/warp CREWARP'));
    const world = await cre.next((m) => m.tank?.type === 4, from);
    assert.equal(world.ext?.toString('latin1', 8, 8 + 7), 'CREWARP');
    // Sprout is not on the list: told so, and not moved.
    from = sprout.mark;
    sprout.send(text(2, 'action|input\n|text|/warp CREWARP'));
    await sprout.call('OnConsoleMessage', from);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!sprout.got.slice(from).some((m) => m.tank?.type === 4), 'no world data for a non-creator');
    cre.close();
  });

  it('point 8: a client older than protocol 225 (protocol|190) gets a clear message, then is disconnected', async () => {
    const c = await connect();
    c.send(gameLogin(testToken('Oldie'), 190, '4.07'));
    const told = await c.next(
      (m) =>
        (m.type === 3 && /^action\|log\nmsg\|/.test(m.text ?? '') && /update|version/i.test(m.text ?? '')) ||
        (m.call?.name === 'OnConsoleMessage' && /update|version|protocol/i.test(String(argValues(m)[0]))),
    );
    assert.ok(told);
    assert.ok(!c.got.some((m) => m.call?.name === LOGON), 'no logon for an outdated client');
    assert.equal(await c.ended(), 'remote');
  });

  it('point 6: a spent login token is refused again after an engine restart', async () => {
    const token = testToken('Spent');
    const { c } = await loggedIn(token);
    c.close();
    for (const x of conns) x.close();
    await stopEngine(engine);
    engine = await start();
    await engine.waitForLine(/Built effective-items\.dat/);
    const again = await connect();
    again.send(gameLogin(token));
    const refused = await again.call('OnConsoleMessage');
    assert.ok(!again.got.some((m) => m.call?.name === LOGON), `logged in again: ${String(argValues(refused)[0])}`);
    assert.equal(await again.ended(), 'remote');
  });
});
