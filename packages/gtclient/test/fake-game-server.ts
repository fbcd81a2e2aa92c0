// A scripted front and engine on growtopia.js native hosts, speaking the flow of docs/game-protocol.md with bytes
// written here by hand (not with the client's encoders), so the Bot is checked against the layouts, not itself.

import { deflateSync } from 'node:zlib';
import { Host } from 'growtopia.js';
import { freeUdpPort } from '../../enet/test/native-host.ts';

type Arg = { s: string } | { i: number } | { u: number } | { f: number } | { v2: number[] } | { v3: number[] };

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

/** A tank type 1 carrying a call: message type 4, 56-byte header (netId, delay, flag 8, length), variant list. */
export function callBytes(netId: number, name: string, ...args: Arg[]): Buffer {
  const parts: Buffer[] = [Buffer.from([1 + args.length])];
  const all: Arg[] = [{ s: name }, ...args];
  all.forEach((a, index) => {
    if ('s' in a) parts.push(Buffer.from([index, 2]), u32(Buffer.byteLength(a.s)), Buffer.from(a.s));
    else if ('i' in a) {
      const v = Buffer.alloc(4);
      v.writeInt32LE(a.i);
      parts.push(Buffer.from([index, 9]), v);
    } else if ('u' in a) parts.push(Buffer.from([index, 5]), u32(a.u));
    else if ('v2' in a || 'v3' in a) {
      const xs = 'v2' in a ? a.v2 : a.v3;
      const v = Buffer.alloc(4 * xs.length);
      xs.forEach((x, i) => {
        v.writeFloatLE(x, i * 4);
      });
      parts.push(Buffer.from([index, 'v2' in a ? 3 : 4]), v);
    } else {
      const v = Buffer.alloc(4);
      v.writeFloatLE(a.f);
      parts.push(Buffer.from([index, 1]), v);
    }
  });
  return tankBytes(1, netId, Buffer.concat(parts));
}

/** Message type 4 with a 56-byte header of zeros but type, netId, flags and extendedLength. */
export function tankBytes(
  type: number,
  netId: number,
  extended: Buffer,
  fields: { value?: number; x?: number; y?: number; px?: number; py?: number } = {},
): Buffer {
  const h = Buffer.alloc(56);
  h[0] = type;
  h.writeInt32LE(netId, 4);
  h.writeUInt32LE(extended.length > 0 ? 8 : 0, 12);
  h.writeInt32LE(fields.value ?? 0, 20);
  h.writeFloatLE(fields.x ?? 0, 24);
  h.writeFloatLE(fields.y ?? 0, 28);
  h.writeInt32LE(fields.px ?? 0, 44);
  h.writeInt32LE(fields.py ?? 0, 48);
  h.writeUInt32LE(extended.length, 52);
  return Buffer.concat([u32(4), h, extended]);
}

/**
 * World data for a 3 x 2 world in the real layout: row 0 empty but for the main door (6) at (1, 0) with its extra
 * data (flag 0x01; kind 1, label `EXIT`, one byte), row 1 bedrock (8) on background 14; no dropped objects;
 * weather 41 (none). `legacy` leaves out the two gaps and the trailer, as Canopy's engine once wrote it.
 */
export function worldBytes(name: string, legacy = false): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x14, 0);
  head.writeUInt32LE(0, 2);
  head.writeUInt16LE(name.length, 6);
  const tile = (fg: number, bg: number, flags = 0) => {
    const t = Buffer.alloc(8);
    t.writeUInt16LE(fg, 0);
    t.writeUInt16LE(bg, 2);
    t.writeUInt16LE(flags, 6);
    return t;
  };
  const door = legacy
    ? tile(6, 0)
    : Buffer.concat([tile(6, 0, 0x01), Buffer.from('01 0400 45584954 00'.replace(/ /g, ''), 'hex')]);
  const tiles = [tile(0, 0), door, tile(0, 0), tile(8, 14), tile(8, 14), tile(8, 14)];
  if (legacy) return Buffer.concat([head, Buffer.from(name), u32(3), u32(2), u32(6), ...tiles, u32(0), u32(0)]);
  const weather = Buffer.from('2900 0000 2900 000000000000'.replace(/ /g, ''), 'hex');
  return Buffer.concat([
    head,
    Buffer.from(name),
    u32(3),
    u32(2),
    u32(6),
    Buffer.alloc(5),
    ...tiles,
    Buffer.alloc(12),
    u32(0),
    u32(0),
    weather,
  ]);
}

const HELLO = Buffer.from('0100000000000000', 'hex');

function text(payload: Buffer): Map<string, string> {
  const body = payload.subarray(4).toString('utf8').replace(/\0.*$/s, '');
  return new Map(
    body.split('\n').map((l) => [l.slice(0, l.indexOf('|')), l.slice(l.indexOf('|') + 1)] as [string, string]),
  );
}

export interface FakeServer {
  frontPort: number;
  enginePort: number;
  items: Buffer;
  /** Every type 4 packet the engine received (tank bytes as sent by the bot). */
  tanks: Buffer[];
  /** Every type 2 and 3 message the front and engine received, as sent. */
  texts: Buffer[];
  /** Sends items.dat with value 0 (what the real client's proxies refuse) instead of its size. */
  setCorruptItemsValue: (on: boolean) => void;
  stop: () => void;
}

/** Starts the front (token "good" passes) and the engine, serviced until stop(). */
export async function startFakeServer(): Promise<FakeServer> {
  const frontPort = await freeUdpPort();
  const enginePort = await freeUdpPort();
  const front = new Host('127.0.0.1', frontPort, 8, 2, false, true, null, null, true, true);
  const engine = new Host('127.0.0.1', enginePort, 8, 2, false, true, null, null, true, true);
  let corruptItemsValue = false;
  const items = Buffer.concat([Buffer.from([0x0c, 0x00]), u32(0), Buffer.from('custom items '.repeat(400))]);
  let itemsHash = 0x55555555;
  for (const b of items) itemsHash = ((itemsHash >>> 27) + (itemsHash << 5) + b) >>> 0;
  const tanks: Buffer[] = [];
  const texts: Buffer[] = [];

  front.setEmitter((type: string, netId: number, _channel: number, data: Buffer) => {
    if (type === 'connect') front.send(netId, HELLO, 0);
    if (type !== 'raw' || data.readUInt32LE(0) !== 2) return;
    texts.push(Buffer.from(data));
    const t = text(data);
    if (t.get('ltoken') !== 'good') {
      front.send(netId, callBytes(-1, 'OnConsoleMessage', { s: 'Your login token is not valid.' }), 0);
      front.getPeer(netId).disconnectLater(front, 0);
      return;
    }
    const redirect = callBytes(
      -1,
      'OnSendToServer',
      { i: enginePort },
      { i: 4242 },
      { i: 17 },
      { s: '127.0.0.1|0|0123456789abcdef0123456789abcdef' },
      { i: 1 },
      { s: 'Alice' },
    );
    front.send(netId, redirect, 0);
    front.getPeer(netId).disconnectLater(front, 0);
  });

  engine.setEmitter((type: string, netId: number, _channel: number, data: Buffer) => {
    if (type === 'connect') engine.send(netId, HELLO, 0);
    if (type !== 'raw' || data.length < 4) return;
    const kind = data.readUInt32LE(0);
    const send = (b: Buffer) => engine.send(netId, b, 0);
    if (kind === 2 || kind === 3) texts.push(Buffer.from(data));
    // An outdated client: the game's update notice in its log, then logon_fail (the references' refusal).
    if (kind === 2 && text(data).has('tankIDName') && text(data).get('protocol') !== '225') {
      send(
        Buffer.from(
          '\x03\x00\x00\x00action|log\nmsg|`4UPDATE REQUIRED!`` : The `$V5.51`` update is now available.\x00',
          'latin1',
        ),
      );
      send(Buffer.from('\x03\x00\x00\x00action|logon_fail\n\x00', 'latin1'));
      engine.getPeer(netId).disconnectLater(engine, 0);
      return;
    }
    if (kind === 2 && text(data).get('UUIDToken') === '0123456789abcdef0123456789abcdef') {
      send(callBytes(-1, 'OnOverrideGDPRFromServer', { i: 18 }, { i: 1 }, { i: 0 }, { i: 1 }));
      send(
        callBytes(
          -1,
          'OnSuperMainStartAcceptLogonHrdxs47254722215a',
          { u: itemsHash },
          { s: 'ubistatic-a.akamaihd.net' },
          { s: '0098/123456/cache/' },
          { s: 'cc.cz.madkite.freedom org.aqua.gg' },
          { s: 'proto=225|choosemusic=audio/mp3/about_theme.mp3|active_holiday=0|' },
          { u: 0xdeadbeef },
        ),
      );
      return;
    }
    if (kind === 4) {
      tanks.push(Buffer.from(data));
      // A punch (tank 3 with the fist) is answered with tile damage (tank 8, value 6) at the punched tile.
      if (data[4] === 3 && data.readInt32LE(24) === 18) {
        send(
          tankBytes(8, netId + 1, Buffer.alloc(0), { value: 6, px: data.readInt32LE(48), py: data.readInt32LE(52) }),
        );
      }
      return;
    }
    // Each action only on the message type the real client sends it with: a bot using the other type times out.
    const t = text(data);
    const action = t.get('action') ?? '';
    const types: Record<string, number> = {
      refresh_item_data: 2,
      enter_game: 2,
      input: 2,
      dialog_return: 2,
      join_request: 3,
      quit_to_exit: 3,
      quit: 3,
    };
    if (types[action] !== kind) return;
    if (action === 'refresh_item_data') {
      send(tankBytes(16, -1, deflateSync(items), { value: corruptItemsValue ? 0 : items.length }));
    }
    if (action === 'enter_game') {
      send(callBytes(-1, 'SetHasGrowID', { i: 1 }, { s: 'Alice' }, { s: '' }));
      send(callBytes(-1, 'OnSetBux', { i: 0 }, { i: 0 }, { i: 1 }));
    }
    if (action === 'enter_game' || action === 'quit_to_exit') {
      send(
        callBytes(-1, 'OnRequestWorldSelectMenu', {
          s: 'add_filter|\nadd_heading|Top Worlds<ROW2>|\nadd_floater|START|0|0.5|3529161471\n',
        }),
      );
    }
    if (action === 'join_request' && t.get('name') === 'LOCKED') {
      send(callBytes(-1, 'OnFailedToEnterWorld', { i: 1 }));
      send(callBytes(-1, 'OnConsoleMessage', { s: 'That world is locked.' }));
    } else if (action === 'join_request') {
      const name = t.get('name') ?? '';
      send(callBytes(-1, 'OnSetCurrentWeather', { i: 41 }));
      send(tankBytes(4, -1, worldBytes(name, name === 'LEGACY')));
      const spawn = `spawn|avatar\nnetID|${netId + 1}\nuserID|1\ncolrect|0|0|20|30\nposXY|0|32\nname|Alice\ncountry|us\ninvis|0\nmstate|0\nsmstate|0\nonlineID|\ntype|local\n`;
      send(tankBytes(1, -1, callBytes(-1, 'OnSpawn', { s: spawn }).subarray(60), { value: -1 }));
      send(
        callBytes(
          netId + 1,
          'OnSetClothing',
          { v3: [0, 0, 0] },
          { v3: [0, 0, 0] },
          { v3: [0, 0, 0] },
          { u: 0xb4bdbeff },
          { v3: [0, 0, 0] },
        ),
      );
      send(tankBytes(9, -1, Buffer.from('01 10000000 0200 1200 01 00 2000 01 00'.replace(/ /g, ''), 'hex')));
      send(callBytes(netId + 1, 'OnCountryState', { s: 'us|showGuild' }));
      send(callBytes(netId + 1, 'OnSetPos', { v2: [32, 0] }));
    }
    if (action === 'input') {
      const said = data.subarray(4).toString('utf8').replace(/\0.*$/s, '').split('|text|')[1] ?? '';
      send(callBytes(netId + 1, 'OnTalkBubble', { i: netId + 1 }, { s: said }, { i: 0 }));
      send(callBytes(-1, 'OnConsoleMessage', { s: `CP:0_PL:0_OID:_CT:[W]_ <\`w${'Alice'}\`\`> ${said}` }));
    }
  });

  let running = true;
  const loop = () => {
    if (!running) return;
    front.service();
    engine.service();
    setTimeout(loop, 1);
  };
  loop();
  return {
    frontPort,
    enginePort,
    items,
    tanks,
    texts,
    setCorruptItemsValue: (on: boolean) => {
      corruptItemsValue = on;
    },
    stop: () => (running = false),
  };
}
