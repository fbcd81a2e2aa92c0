// A tiny game client for the engine's game tests: growtopia.js's Host in client mode with the standard ENet
// header (its new-packet client mode panics), against an engine started with --standard-enet-header. Its
// message reading is written here from docs/game-protocol.md, apart from the engine's codec, so a mistake
// there is not mirrored here.
import { randomBytes } from 'node:crypto';
import { gameServerKey, signGameToken } from '@canopy/contract/game-token';
import { Host } from 'growtopia.js';
import { TEST_SECRET } from './engine-process.ts';

/** One message from the engine, read loosely. */
export interface Received {
  type: number;
  raw: Buffer;
  /** Text and game messages. */
  text?: string;
  /** Tank messages. */
  tank?: { tankType: number; netId: number; value: number; x: number; y: number; punchX: number; punchY: number };
  extended?: Buffer;
  /** Call-function tanks: the function name and its arguments. */
  call?: { name: string; args: (string | number)[] };
}

/** A game token the engine started with TEST_SECRET accepts. */
export function testToken(growId: string, opts: { now?: number; secret?: string } = {}): string {
  return signGameToken(
    { port: 0, server: 'test', growId },
    { gateway: randomBytes(32), server: gameServerKey(opts.secret ?? TEST_SECRET) },
    opts.now ?? Date.now(),
  );
}

function readVariants(b: Buffer): (string | number)[] | undefined {
  const args: (string | number)[] = [];
  let at = 1;
  for (let i = 0; i < (b[0] ?? 0); i++) {
    const type = b[at + 1];
    at += 2;
    if (type === 2) {
      const n = b.readUInt32LE(at);
      args.push(b.toString('utf8', at + 4, at + 4 + n));
      at += 4 + n;
    } else if (type === 9) {
      args.push(b.readInt32LE(at));
      at += 4;
    } else if (type === 5) {
      args.push(b.readUInt32LE(at));
      at += 4;
    } else if (type === 1) {
      args.push(b.readFloatLE(at));
      at += 4;
    } else if (type === 3 || type === 4) {
      // vec2 / vec3 (OnSetPos, OnSetClothing): the first coordinate stands for the value here
      args.push(b.readFloatLE(at));
      at += type === 3 ? 8 : 12;
    } else return undefined;
  }
  return args;
}

function read(raw: Buffer): Received {
  const type = raw.readUInt32LE(0);
  const r: Received = { type, raw };
  if (type === 2 || type === 3) r.text = raw.toString('utf8', 4).replace(/\0.*$/s, '');
  if (type === 4 && raw.length >= 60) {
    const t = raw.subarray(4);
    r.tank = {
      tankType: t[0] as number,
      netId: t.readInt32LE(4),
      value: t.readInt32LE(20),
      x: t.readFloatLE(24),
      y: t.readFloatLE(28),
      punchX: t.readInt32LE(44),
      punchY: t.readInt32LE(48),
    };
    r.extended = t.subarray(56, 56 + t.readUInt32LE(52));
    if (r.tank.tankType === 1) {
      const args = readVariants(r.extended);
      if (args) r.call = { name: String(args[0]), args: args.slice(1) };
    }
  }
  return r;
}

/** The 60 bytes of a tank message written out field by field. */
export function tankBytes(f: {
  tankType: number;
  netId?: number;
  value?: number;
  x?: number;
  y?: number;
  punchX?: number;
  punchY?: number;
}): Buffer {
  const b = Buffer.alloc(60);
  b.writeUInt32LE(4, 0);
  b[4] = f.tankType;
  b.writeInt32LE(f.netId ?? 0, 8);
  b.writeInt32LE(f.value ?? 0, 24);
  b.writeFloatLE(f.x ?? 0, 28);
  b.writeFloatLE(f.y ?? 0, 32);
  b.writeInt32LE(f.punchX ?? 0, 48);
  b.writeInt32LE(f.punchY ?? 0, 52);
  return b;
}

/** `u32 type`, lines joined by `\n`, NUL. */
export const textBytes = (type: 2 | 3, lines: string[]) =>
  Buffer.concat([Buffer.from([type, 0, 0, 0]), Buffer.from(lines.join('\n')), Buffer.from([0])]);

export class GameClient {
  readonly received: Received[] = [];
  connected = false;
  disconnected = false;
  private peer = -1;
  private host: InstanceType<typeof Host> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private waiters = new Set<() => void>();

  /** Connects (retrying as ENet does) and resolves once the engine's hello arrived. */
  static async connect(port: number, timeoutMs = 15_000): Promise<GameClient> {
    const c = new GameClient();
    c.host = new Host('127.0.0.1', 0, 1, 2, false, false, null, null, true, true, null);
    c.host.setEmitter((event: string, peer: number, _channel: number, data?: Buffer) => {
      if (event === 'connect') {
        c.peer = peer;
        c.connected = true;
      } else if (event === 'disconnect') c.disconnected = true;
      else if (event === 'raw' && data) c.received.push(read(Buffer.from(data)));
      for (const w of c.waiters) w();
    });
    c.host.connect('127.0.0.1', port);
    // growtopia.js's service() handles one event and then sleeps 10 ms in native code: one call a tick.
    c.timer = setInterval(() => {
      try {
        c.host?.service();
      } catch {}
    }, 1);
    try {
      await c.waitFor((m) => m.type === 1, 0, timeoutMs);
    } catch (error) {
      c.close();
      throw error;
    }
    return c;
  }

  /** Queues a packet; false once the engine has let this client go. */
  send(data: Buffer): boolean {
    try {
      return this.host?.send(this.peer, data, 0) ?? false;
    } catch {
      return false; // the library throws for a peer that is no longer connected
    }
  }
  sendText(lines: string[]): void {
    this.send(textBytes(2, lines));
  }
  sendGame(lines: string[]): void {
    this.send(textBytes(3, lines));
  }

  /** Resolves with the first message from index `from` matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (m: Received) => boolean, from = 0, timeoutMs = 10_000): Promise<Received> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.slice(from).find(pred);
        if (found) {
          this.waiters.delete(check);
          clearTimeout(deadline);
          resolve(found);
        }
      };
      const deadline = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching message; got ${this.received.map(describe).join(', ')}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** The first call named `name` from index `from`. */
  waitForCall(name: string, from = 0, timeoutMs?: number): Promise<Received> {
    return this.waitFor((m) => m.call?.name === name, from, timeoutMs);
  }

  /** Resolves once the engine disconnected this client; rejects after `timeoutMs`. */
  waitForDisconnect(timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!this.disconnected) return;
        this.waiters.delete(check);
        clearTimeout(deadline);
        resolve();
      };
      const deadline = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error('not disconnected'));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Logs in with a token; resolves with the engine's answer (the logon call or a console message). */
  async login(token: string): Promise<Received> {
    const from = this.received.length;
    // The real client's order (docs/game-protocol.md, step 5): tankIDName first, the redirect's token last.
    this.sendText([
      'tankIDName|',
      'tankIDPass|',
      'requestedName|Tester',
      'f|1',
      'protocol|225',
      'game_version|5.51',
      'lmode|1',
      'user|0',
      'token|0',
      `UUIDToken|${token}`,
      'doorID|0',
    ]);
    return this.waitFor(
      (m) => m.call?.name === 'OnSuperMainStartAcceptLogonHrdxs47254722215a' || m.call?.name === 'OnConsoleMessage',
      from,
    );
  }

  /** enter_game then join_request; resolves once the local OnSpawn arrived. */
  async join(world: string): Promise<{ worldData: Received; spawn: Received }> {
    const from = this.received.length;
    this.sendText(['action|enter_game']); // type 2, as the real client sends it
    await this.waitForCall('OnRequestWorldSelectMenu', from);
    this.sendGame(['action|join_request', `name|${world}`, 'invitedWorld|0']);
    const worldData = await this.waitFor((m) => m.tank?.tankType === 4, from);
    const spawn = await this.waitFor(
      (m) => m.call?.name === 'OnSpawn' && /type\|local/.test(String(m.call.args[0])),
      from,
    );
    return { worldData, spawn };
  }

  /** Disconnects from the engine (a quit without saying so) and waits until ENet confirms it. */
  async disconnect(): Promise<void> {
    if (this.host && !this.disconnected) {
      try {
        this.host.getPeer(this.peer).disconnect(this.host, 0);
      } catch {}
      await this.waitForDisconnect().catch(() => {});
    }
    this.close();
  }

  close(): void {
    clearInterval(this.timer);
    this.host?.setEmitter(() => {});
    this.host = undefined;
  }
}

const describe = (m: Received) => (m.call ? m.call.name : m.tank ? `tank${m.tank.tankType}` : `type${m.type}`);
