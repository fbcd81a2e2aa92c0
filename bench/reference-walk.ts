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
// The walk talks ENet with our own client (@canopy/enet: new-packet header, crc32, range coder); what it records of each
// message is in bench/lib/reference-messages.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gameServerKey, signGameToken } from '@canopy/contract/game-token';
import {
  blankTank,
  chatInput,
  EnetClient,
  encodeAction,
  encodeTank,
  encodeText,
  frontLoginLines,
  gameLoginLines,
  joinRequest,
  LOGON_CALL,
  parseSendToServer,
  protonHash,
  TankType,
} from '@canopy/gtclient';
import { describe, type Received, signature, type Walk } from './lib/reference-messages.ts';

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
      const to = parseSendToServer(
        redirect.call.args.map((x) => x.value),
        o.host,
      );
      await settle(clock, 300, 1500);
      result.enet.push({ ...front.stats });
      front.disconnectNow();
      return to;
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
      user: to.user,
      token: to.token,
      uuidToken: to.uuidToken,
      doorId: to.doorId,
    });
    p.send(encodeText(2, lines));
    const logon = await p.waitFor(isCall(LOGON_CALL));
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
    observer.send(joinRequest(o.world));
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
  a.send(joinRequest(o.world));
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
  a.send(chatInput('hi'));
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

/** Reads a walk file; walks recorded before the tank fields took gtclient's names hold `flags` for `stateFlags`. */
function readWalk(file: string): Walk {
  const w: Walk = JSON.parse(readFileSync(file, 'utf8'));
  for (const { tank } of w.received)
    if (tank && tank.stateFlags === undefined) tank.stateFlags = Reflect.get(tank, 'flags');
  return w;
}

/** Per step, a's and b's messages by position; a line is marked when the two differ. */
function compare(a: Walk, b: Walk): string {
  const brief = (r: Received | undefined) => {
    if (!r) return '-';
    if (r.call)
      return `${r.call.name}(${r.call.args.map((x) => x.type).join(',')}) net=${r.tank?.netId} val=${r.tank?.value}`;
    if (r.kind === 'text') return `text t${r.msgType} ${(r.text ?? '').split('\n')[0]}`;
    if (r.tank)
      return `tank${r.tank.type} net=${r.tank.netId} val=${r.tank.value} fl=0x${r.tank.stateFlags.toString(16)}`;
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
  console.log(compare(readWalk(fa), readWalk(fb)));
} else {
  console.error('usage: node bench/reference-walk.ts walk|ltoken-base64|ltoken-canopy|compare …');
  process.exit(2);
}
process.exit(0);
