import type { WorldListResponse } from '@canopy/contract/engine';
import { encodeInventory } from '../protocol/inventory.ts';
import { TANK } from '../protocol/message-types.ts';
import { encodeTank, type TankHeader, tankHeader } from '../protocol/tank.ts';
import { encodeCall } from '../protocol/variant.ts';
import { encodeWorldData } from '../protocol/world-data.ts';
import type { GameDeps } from './game-server.ts';
import type { ItemsData } from './items-data.ts';
import type { LiveWorld, LiveWorlds } from './live-worlds.ts';
import { placed } from './movement.ts';
import { allow, CHAT_LINES, CHAT_WINDOW_MS } from './rate.ts';
import type { Session } from './session.ts';
import { createWorldQuota } from './world-quota.ts';

const FIST = 18;
const UNBREAKABLE = new Set([6, 8]); // main door, bedrock
const REACH_TILES = 4;
const CHAT_MAX = 120;
const MENU_WORLDS = 30;
const SLOW_DOWN = `\`4Slow down!\`\` You can chat ${CHAT_LINES} times every ${CHAT_WINDOW_MS / 1000} seconds.`;
/** Drops control characters: they could forge console lines or break the client's markup. */
const withoutControls = (text: string) =>
  [...text].filter((ch) => ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) !== 127).join('');

interface FlowParts {
  deps: GameDeps;
  live: LiveWorlds;
  send(s: Session, data: Buffer): void;
  /** Sent once, never again: for movement, where a newer state replaces a lost one. */
  sendUnreliable(s: Session, data: Buffer): void;
  consoleMessage(s: Session, text: string): void;
  sessionOf(netId: number): Session | undefined;
}

/** The in-world part of the flow: menu, join, spawn, movement, chat, tiles, leave (steps 7 to 12). */
export function createWorldFlow({ deps, live, send, sendUnreliable, consoleMessage, sessionOf }: FlowParts) {
  const { log, players } = deps;
  const now = deps.now ?? Date.now;
  const quota = createWorldQuota(deps.worlds, now, deps.worldCreations);
  const everyone = (w: LiveWorld) => [...w.players].map(sessionOf).filter((s) => s !== undefined);

  const spawnText = (s: Session, local: boolean) =>
    `spawn|avatar\nnetID|${s.netId}\nuserID|${s.userId}\ncolrect|0|0|20|30\nposXY|${s.x}|${s.y}\nname|${s.name}\n` +
    `country|us\ninvis|0\nmstate|0\nsmstate|0\n${local ? 'type|local\n' : ''}`;

  const doorOf = (w: LiveWorld) => {
    const i = w.tiles.fg.indexOf(6);
    const at = i === -1 ? 0 : i;
    return { x: (at % w.meta.width) * 32, y: Math.floor(at / w.meta.width) * 32 };
  };
  /** Spawning: the server sets the position, so the movement check starts from it. */
  const placeAtDoor = (s: Session, w: LiveWorld) => {
    const door = doorOf(w);
    placed(s, door.x, door.y, now());
  };
  const worldPacket = (w: LiveWorld) =>
    encodeTank(
      tankHeader({ tankType: TANK.worldData }),
      encodeWorldData({ name: w.name, width: w.meta.width, height: w.meta.height, fg: w.tiles.fg, bg: w.tiles.bg }),
    );
  const inventoryPacket = (s: Session) =>
    encodeTank(tankHeader({ tankType: TANK.inventory }), encodeInventory(s.inventory));

  return {
    itemsDatPacket: (items: ItemsData) => encodeTank(tankHeader({ tankType: TANK.itemsDat }), items.deflated),

    worldMenu(s: Session) {
      const { worlds } = JSON.parse(
        Buffer.from(deps.worlds.list({ limit: MENU_WORLDS })).toString(),
      ) as WorldListResponse;
      const lines = ['default|', ...worlds.map((w) => `add_floater|${w.name}|${w.players}|0.5|3529161471`)];
      send(s, encodeCall('OnRequestWorldSelectMenu', [`${lines.join('\n')}\n`]));
    },

    join(s: Session, raw: string) {
      if (s.world) this.leaveWorld(s);
      const w = live.open(raw, () => quota.refusal(s.userId));
      if ('refused' in w) {
        send(s, encodeCall('OnFailedToEnterWorld', [1]));
        return consoleMessage(s, w.refused);
      }
      placeAtDoor(s, w);
      send(s, worldPacket(w));
      const there = everyone(w);
      w.players.add(s.netId);
      s.world = w;
      send(s, encodeCall('OnSpawn', [spawnText(s, true)]));
      for (const o of there) {
        send(o, encodeCall('OnSpawn', [spawnText(s, false)]));
        send(s, encodeCall('OnSpawn', [spawnText(o, false)]));
      }
      send(s, inventoryPacket(s));
      consoleMessage(s, `World ${w.name} entered. There are ${there.length} other people here.`);
      log.info(`${s.name} entered ${w.name}`);
      deps.playersChanged();
    },

    leaveWorld(s: Session) {
      const w = s.world;
      if (!w) return;
      w.players.delete(s.netId);
      s.world = undefined;
      for (const o of everyone(w)) send(o, encodeCall('OnRemove', [`netID|${s.netId}\n`]));
      live.release(w);
      log.info(`${s.name} left ${w.name}`);
      deps.playersChanged();
    },

    move(s: Session, h: TankHeader) {
      const w = s.world as LiveWorld;
      const relay = encodeTank({ ...h, netId: s.netId, stateFlags: h.stateFlags & ~8 });
      // The hot path (every player's 20 moves a second to every other player): no intermediate arrays.
      for (const id of w.players) {
        const o = id === s.netId ? undefined : sessionOf(id);
        if (o) sendUnreliable(o, relay);
      }
    },

    chat(s: Session, raw: string) {
      const w = s.world;
      // Control characters could forge console lines or break the client's markup.
      const text = withoutControls(raw).replace(/\s+/g, ' ').trim().slice(0, CHAT_MAX);
      if (!w || !text) return;
      if (!allow(s.chatTimes, CHAT_LINES, CHAT_WINDOW_MS, now())) return consoleMessage(s, SLOW_DOWN);
      const bubble = encodeCall('OnTalkBubble', [s.netId, text, 0], s.netId);
      const line = encodeCall('OnConsoleMessage', [`CP:0_PL:0_OID:_CT:[W]_ <${s.name}> ${text}`]);
      for (const o of everyone(w)) {
        send(o, bubble);
        send(o, line);
      }
      log.info(`[${w.name}] ${s.name}: ${text}`);
    },

    async tileChange(s: Session, h: TankHeader) {
      const w = s.world as LiveWorld;
      const { width, height } = w.meta;
      const { punchX: x, punchY: y } = h;
      if (x < 0 || y < 0 || x >= width || y >= height) return;
      if (Math.abs(x - Math.floor(s.x / 32)) > REACH_TILES || Math.abs(y - Math.floor(s.y / 32)) > REACH_TILES) return;
      const i = y * width + x;
      const { fg, bg } = w.tiles;
      if (h.value === FIST) {
        const target = fg[i] || bg[i];
        if (!target || UNBREAKABLE.has(target)) return;
        const hits = (w.hits.get(i) ?? 0) + 1;
        const items = await deps.items();
        if (s.world !== w) return;
        if (hits < items.hitsToBreak(target)) return void w.hits.set(i, hits);
        w.hits.delete(i);
        if (fg[i]) fg[i] = 0;
        else bg[i] = 0;
      } else {
        const slot = s.inventory.find(([id, n]) => id === h.value && n > 0);
        if (fg[i] || !slot || h.value <= 0 || h.value > 0xffff) return;
        slot[1]--;
        if (slot[1] === 0) s.inventory.splice(s.inventory.indexOf(slot), 1);
        players.giveItem(s.name as string, h.value, -1);
        fg[i] = h.value;
      }
      live.changed(w);
      const change = encodeTank(
        tankHeader({ tankType: TANK.tileChange, netId: s.netId, value: h.value, punchX: x, punchY: y }),
      );
      for (const o of everyone(w)) send(o, change);
    },

    /** Sends the session's inventory again (after the Player Database changed it). */
    resendInventory(s: Session) {
      if (s.world) send(s, inventoryPacket(s));
    },

    /**
     * After a control API edit of a world: its players get the stored world at once and spawn at its door (the
     * edit may have moved or covered where they stood); when it was deleted or locked they go to the menu.
     */
    worldEdited(name: string) {
      const edited = live.reload(name);
      if (!edited) return;
      const { world: w, gone } = edited;
      const here = everyone(w);
      if (gone) {
        w.players.clear();
        for (const s of here) {
          s.world = undefined;
          this.worldMenu(s);
          consoleMessage(s, `This world was ${gone} by the server owner.`);
        }
        deps.playersChanged();
      } else {
        const data = worldPacket(w);
        for (const s of here) placeAtDoor(s, w);
        for (const s of here) {
          send(s, data);
          send(s, encodeCall('OnSpawn', [spawnText(s, true)]));
          for (const o of here) if (o !== s) send(s, encodeCall('OnSpawn', [spawnText(o, false)]));
          consoleMessage(s, 'This world was changed by the server owner.');
        }
      }
      log.info(`${w.name} was ${gone ?? 'changed'} from the control API with ${here.length} players in it`);
    },
  };
}
