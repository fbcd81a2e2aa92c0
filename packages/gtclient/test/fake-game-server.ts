// A scripted front and engine on growtopia.js native hosts, speaking the flow of docs/game-protocol.md with bytes
// written here by hand (not with the client's encoders), so the Bot is checked against the layouts, not itself.

import { deflateSync } from 'node:zlib';
import { Host } from 'growtopia.js';
import { freeUdpPort } from '../../enet/test/native-host.ts';

type Arg = { s: string } | { i: number } | { u: number } | { f: number };

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
    else {
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

/** World data for a 3 x 2 world: row 0 empty, row 1 a door (6) then two bedrock (8), on background 14. */
export function worldBytes(name: string): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x14, 0);
  head.writeUInt32LE(0, 2);
  head.writeUInt16LE(name.length, 6);
  const tiles = [
    [0, 0],
    [0, 0],
    [0, 0],
    [6, 14],
    [8, 14],
    [8, 14],
  ].map(([fg = 0, bg = 0]) => {
    const t = Buffer.alloc(8);
    t.writeUInt16LE(fg, 0);
    t.writeUInt16LE(bg, 2);
    return t;
  });
  return Buffer.concat([head, Buffer.from(name), u32(3), u32(2), u32(6), ...tiles, u32(0), u32(0)]);
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
  stop: () => void;
}

/** Starts the front (token "good" passes) and the engine, serviced until stop(). */
export async function startFakeServer(): Promise<FakeServer> {
  const frontPort = await freeUdpPort();
  const enginePort = await freeUdpPort();
  const front = new Host('127.0.0.1', frontPort, 8, 2, false, true, null, null, true, true);
  const engine = new Host('127.0.0.1', enginePort, 8, 2, false, true, null, null, true, true);
  const items = Buffer.concat([Buffer.from([0x0c, 0x00]), u32(0), Buffer.from('custom items '.repeat(400))]);
  let itemsHash = 0x55555555;
  for (const b of items) itemsHash = ((itemsHash >>> 27) + (itemsHash << 5) + b) >>> 0;
  const tanks: Buffer[] = [];

  front.setEmitter((type: string, netId: number, _channel: number, data: Buffer) => {
    if (type === 'connect') front.send(netId, HELLO, 0);
    if (type !== 'raw' || data.readUInt32LE(0) !== 2) return;
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
      { i: 0 },
      { i: 0 },
      { s: '127.0.0.1|0|uuid-good' },
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
    if (kind === 2 && text(data).get('UUIDToken') === 'uuid-good') {
      send(
        callBytes(
          -1,
          'OnSuperMainStartAcceptLogonHrdxs47254722215a',
          { u: itemsHash },
          { s: 'cdn' },
          { s: 'cache/' },
          { s: '' },
          { s: '' },
        ),
      );
      return;
    }
    if (kind === 4) {
      tanks.push(Buffer.from(data));
      return;
    }
    if (kind !== 3) return;
    const t = text(data);
    const action = t.get('action');
    if (action === 'refresh_item_data') send(tankBytes(16, -1, deflateSync(items)));
    if (action === 'enter_game' || action === 'quit_to_exit') {
      send(callBytes(-1, 'OnRequestWorldSelectMenu', { s: 'default|\nadd_floater|START|0|0.5|3529161471\n' }));
    }
    if (action === 'join_request' && t.get('name') === 'LOCKED') {
      send(callBytes(-1, 'OnFailedToEnterWorld', { i: 1 }));
      send(callBytes(-1, 'OnConsoleMessage', { s: 'That world is locked.' }));
    } else if (action === 'join_request') {
      send(tankBytes(4, -1, worldBytes(t.get('name') ?? '')));
      const spawn = `spawn|avatar\nnetID|${netId + 1}\nuserID|1\ncolrect|0|0|20|30\nposXY|0|32\nname|Alice\ncountry|us\ninvis|0\nmstate|0\nsmstate|0\ntype|local\n`;
      send(callBytes(-1, 'OnSpawn', { s: spawn }));
      send(tankBytes(9, -1, Buffer.from('01 10000000 0100 1200 01 00'.replace(/ /g, ''), 'hex')));
    }
    if (action === 'input') {
      const said = data.subarray(4).toString('utf8').replace(/\0.*$/s, '').split('|text|')[1] ?? '';
      send(callBytes(netId + 1, 'OnTalkBubble', { i: netId + 1 }, { s: said }, { i: 0 }));
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
  return { frontPort, enginePort, items, tanks, stop: () => (running = false) };
}
