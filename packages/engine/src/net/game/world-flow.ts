import type { WorldListResponse } from '@canopy/contract/engine';
import { ITEM } from '../../items/item-ids.ts';
import { encodeInventory } from '../protocol/inventory.ts';
import { placeLayer } from '../protocol/item-actions.ts';
import { TANK } from '../protocol/message-types.ts';
import { encodeTank, type TankHeader, tankHeader } from '../protocol/tank.ts';
import { encodeCall } from '../protocol/variant.ts';
import { encodeWorldData } from '../protocol/world-data.ts';
import type { GameDeps } from './game-server.ts';
import type { ItemsData } from './items-data.ts';
import type { LiveWorld, LiveWorlds } from './live-worlds.ts';
import { placed } from './movement.ts';
import {
  accountPackets,
  characterState,
  clothingCall,
  countryCall,
  removeCall,
  setPosCall,
  spawnCall,
  talkBubble,
  tileDamage,
} from './player-packets.ts';
import type { Session } from './session.ts';
import { createWorldQuota } from './world-quota.ts';

const UNBREAKABLE = new Set<number>([ITEM.mainDoor, ITEM.bedrock]);
const REACH_TILES = 4;
const CHAT_MAX = 120;
const MENU_WORLDS = 30;
/** The world menu's colour of a listed world (RGBA), as the references send it. */
const FLOATER_COLOUR = 3529161471;
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
  /** The player leaves their world (the autofarm stops with it). */
  leaving(s: Session): void;
  /** The items.dat in force, once loaded (at login): which tiles carry extra data, what may be placed. */
  items(): ItemsData | undefined;
  /** How many players are online (the world menu says it). */
  online(): number;
}

/** The in-world part of the flow: menu, join, spawn, movement, chat, tiles, leave (steps 7 to 12). */
export function createWorldFlow(parts: FlowParts) {
  const { deps, live, send, sendUnreliable, consoleMessage, sessionOf } = parts;
  const { log, players } = deps;
  const now = deps.now ?? Date.now;
  const quota = createWorldQuota(deps.worlds, now, deps.worldCreations);
  const everyone = (w: LiveWorld) => [...w.players].map(sessionOf).filter((s) => s !== undefined);

  const doorOf = (w: LiveWorld) => {
    const i = w.tiles.fg.indexOf(ITEM.mainDoor);
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
      encodeWorldData(
        { name: w.name, width: w.meta.width, height: w.meta.height, fg: w.tiles.fg, bg: w.tiles.bg },
        (id) => parts.items()?.actionOf(id),
      ),
    );
  const inventoryPacket = (s: Session) =>
    encodeTank(tankHeader({ tankType: TANK.inventory }), encodeInventory(s.inventory));

  /** A player's own avatar and state arrive in the world: spawn, clothes, position, state, inventory, country. */
  const arrive = (s: Session, others: Session[]) => {
    send(s, spawnCall(s, true));
    send(s, clothingCall(s));
    send(s, setPosCall(s));
    for (const o of others) {
      send(s, spawnCall(o, false));
      send(s, clothingCall(o));
      send(s, countryCall(o));
    }
    send(s, inventoryPacket(s));
    send(s, characterState(s));
    send(s, countryCall(s));
  };

  return {
    /** items.dat zlib-deflated, the value field saying its size before (what the real server sends). */
    itemsDatPacket: (items: ItemsData) =>
      encodeTank(tankHeader({ tankType: TANK.itemsDat, netId: -1, value: items.size }), items.deflated),

    /** `action|enter_game`: welcome, inventory, gems and GrowID, then the world menu. */
    enterGame(s: Session) {
      consoleMessage(s, `Welcome back, ${s.name}.`);
      send(s, inventoryPacket(s));
      for (const packet of accountPackets(s, players.get(s.name as string)?.gems ?? 0)) send(s, packet);
      this.worldMenu(s);
    },

    worldMenu(s: Session) {
      const { worlds } = JSON.parse(
        Buffer.from(deps.worlds.list({ limit: MENU_WORLDS })).toString(),
      ) as WorldListResponse;
      // Where the players are first, then the rest of the stored worlds by name.
      const top = live.populated().slice(0, MENU_WORLDS);
      const listed = new Set(top.map((w) => w.name));
      for (const w of worlds) if (top.length < MENU_WORLDS && !listed.has(w.name)) top.push(w);
      const lines = [
        'add_filter|',
        'add_heading|Top Worlds<ROW2>|',
        ...top.map((w) => `add_floater|${w.name}|${w.players}|0.5|${FLOATER_COLOUR}`),
      ];
      send(s, encodeCall('OnRequestWorldSelectMenu', [`${lines.join('\n')}\n`, 1]));
      consoleMessage(s, `Where would you like to go? (\`w${parts.online()}\`\` online)`);
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
      arrive(s, there);
      const entered = `\`5<\`w${s.name}\`\` entered, \`w${there.length}\`\` others here>\`\``;
      for (const o of there) {
        send(o, spawnCall(s, false));
        send(o, clothingCall(s));
        send(o, characterState(s));
        send(o, countryCall(s));
        consoleMessage(o, entered);
        send(o, talkBubble(s.netId, entered));
      }
      consoleMessage(s, `World ${w.name} entered. There are ${there.length} other people here.`);
      log.info(`${s.name} entered ${w.name}`);
      deps.playersChanged();
    },

    leaveWorld(s: Session) {
      const w = s.world;
      if (!w) return;
      parts.leaving(s);
      w.players.delete(s.netId);
      s.world = undefined;
      for (const o of everyone(w)) send(o, removeCall(s));
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
      const bubble = talkBubble(s.netId, text);
      const line = encodeCall('OnConsoleMessage', [`CP:0_PL:0_OID:_CT:[W]_ <${s.name}> ${text}`]);
      for (const o of everyone(w)) {
        send(o, bubble);
        send(o, line);
      }
      log.info(`[${w.name}] ${s.name}: ${text}`);
    },

    /** The layers of a tile of the player's world; undefined outside it (autofarm.ts). */
    tileAt(s: Session, x: number, y: number) {
      const w = s.world;
      if (!w || x < 0 || y < 0 || x >= w.meta.width || y >= w.meta.height) return undefined;
      const i = y * w.meta.width + x;
      return { fg: w.tiles.fg[i] ?? 0, bg: w.tiles.bg[i] ?? 0 };
    },

    /**
     * A punch (item 18) or a placement at punchX/punchY. Every hit is shown to the world (tank 8); a break or a
     * placement is a tank 3 to the world. Answers whether it was taken (autofarm stops on a refusal).
     */
    async tileChange(s: Session, h: Pick<TankHeader, 'value' | 'punchX' | 'punchY'>): Promise<boolean> {
      const w = s.world;
      if (!w) return false;
      const { width, height } = w.meta;
      const { punchX: x, punchY: y } = h;
      if (x < 0 || y < 0 || x >= width || y >= height) return false;
      if (Math.abs(x - Math.floor(s.x / 32)) > REACH_TILES || Math.abs(y - Math.floor(s.y / 32)) > REACH_TILES)
        return false;
      const items = await deps.items();
      if (s.world !== w) return false;
      // Read after the wait: a control API edit meanwhile replaces the world's tiles (live-worlds.ts, reload).
      const i = y * width + x;
      const { fg, bg } = w.tiles;
      if (h.value === ITEM.fist) {
        const target = fg[i] || bg[i];
        if (!target || UNBREAKABLE.has(target)) return false;
        const damage = tileDamage(s, x, y);
        for (const o of everyone(w)) send(o, damage);
        const hits = (w.hits.get(i) ?? 0) + 1;
        if (hits < items.hitsToBreak(target)) {
          w.hits.set(i, hits);
          return true;
        }
        w.hits.delete(i);
        if (fg[i]) fg[i] = 0;
        else bg[i] = 0;
      } else {
        // Only what has a plain layer is placed (item-actions.ts): not the wrench, nor doors, locks, signs and
        // seeds, which carry data the engine does not keep yet.
        const layer = placeLayer(items.actionOf(h.value));
        const slot = s.inventory.find(([id, n]) => id === h.value && n > 0);
        if (!layer || !slot || (layer === 'fg' ? fg[i] : bg[i])) return false;
        slot[1]--;
        if (slot[1] === 0) s.inventory.splice(s.inventory.indexOf(slot), 1);
        players.giveItem(s.name as string, h.value, -1);
        (layer === 'fg' ? fg : bg)[i] = h.value;
      }
      live.changed(w);
      const change = encodeTank(
        tankHeader({ tankType: TANK.tileChange, netId: s.netId, value: h.value, punchX: x, punchY: y }),
      );
      for (const o of everyone(w)) send(o, change);
      return true;
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
          arrive(
            s,
            here.filter((o) => o !== s),
          );
          consoleMessage(s, 'This world was changed by the server owner.');
        }
      }
      log.info(`${w.name} was ${gone ?? 'changed'} from the control API with ${here.length} players in it`);
    },
  };
}
