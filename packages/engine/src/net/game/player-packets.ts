// The calls and tanks the real client expects around entering the game and a world, in the references' forms
// (docs/game-protocol.md, steps 5 to 11; ../shared/docs/gtps-domain.md, "What the real client sends and expects").
import { TANK } from '../protocol/message-types.ts';
import { encodeTank, tankHeader } from '../protocol/tank.ts';
import { encodeCall } from '../protocol/variant.ts';
import type { Session } from './session.ts';

/** Where the client fetches the game's textures and sounds, named in OnSuperMainStartAcceptLogon. */
export interface Cdn {
  host: string;
  path: string;
}

/** The game's own CDN: a real client with the game's items.dat then draws every item. */
export const DEFAULT_CDN: Cdn = { host: 'ubistatic-a.akamaihd.net', path: '0098/150726456789/cache/' };

/** A skin colour the client draws as the default (RGBA). */
const DEFAULT_SKIN = 0x8295c3ff;
/** The client's music and options; `proto` names the protocol we speak. */
const settings = (protocol: number, tick: number) =>
  `proto=${protocol}|choosemusic=audio/mp3/about_theme.mp3|active_holiday=0|wing_week_day=0|ubi_week_day=0|` +
  `server_tick=${tick}|clash_active=0|drop_lavacheck_faster=1|isPayingUser=0|usingStoreNavigation=1|` +
  'enableInventoryTab=1|bigBackpack=1|';

/** After a good login: the privacy-notice override, then the logon with the items.dat hash and the CDN. */
export function logonPackets(itemsHash: number, cdn: Cdn, protocol: number, now: number): Buffer[] {
  return [
    encodeCall('OnOverrideGDPRFromServer', [18, 1, 0, 1]),
    encodeCall('OnSuperMainStartAcceptLogonHrdxs47254722215a', [
      { type: 'u32', value: itemsHash },
      cdn.host,
      cdn.path,
      '', // apps the client should refuse to run beside the game: none
      settings(protocol, now % 0x7fffffff),
      { type: 'u32', value: 0 }, // player tribute data hash: none
    ]),
  ];
}

/** Gems and the GrowID the client shows once in the game (enter_game). */
export function accountPackets(s: Session, gems: number): Buffer[] {
  return [encodeCall('OnSetBux', [gems, 1, 1]), encodeCall('SetHasGrowID', [1, s.name ?? '', ''])];
}

/** The OnSpawn text: `type|local` marks the receiver's own avatar. Positions in pixels; the name in white (`w). */
export function spawnText(s: Session, local: boolean): string {
  return (
    `spawn|avatar\nnetID|${s.netId}\nuserID|${s.userId}\ncolrect|0|0|20|30\nposXY|${s.x}|${s.y}\n` +
    `name|\`w${s.name}\`\`\ncountry|${s.country}\ninvis|0\nmstate|0\nsmstate|0\nonlineID|\n${local ? 'type|local\n' : ''}`
  );
}

/** OnSpawn runs at once (value -1), as the references send it. */
export const spawnCall = (s: Session, local: boolean) => encodeCall('OnSpawn', [spawnText(s, local)], -1, -1);

/** What the player wears: nothing yet (item 0 everywhere), default skin. Sent with the player's netId. */
export const clothingCall = (s: Session) =>
  encodeCall(
    'OnSetClothing',
    [
      { type: 'vec3', value: [0, 0, 0] }, // hair, shirt, pants
      { type: 'vec3', value: [0, 0, 0] }, // feet, face, hand
      { type: 'vec3', value: [0, 0, 0] }, // back, mask, necklace
      { type: 'u32', value: DEFAULT_SKIN },
      { type: 'vec3', value: [0, 0, 0] }, // ances
    ],
    s.netId,
  );

/**
 * The character state (tank 20): build and punch range, then the movement constants the client plays with
 * (water speed, speed, acceleration, punch strength, gravity) as the references send them.
 */
export const characterState = (s: Session) =>
  encodeTank(
    tankHeader({
      tankType: TANK.characterState,
      jumpCount: 0x80,
      animationType: 0x80,
      netId: s.netId,
      delay: 125,
      x: 1200,
      y: 200,
      xSpeed: 250,
      ySpeed: 1000,
    }),
  );

export const countryCall = (s: Session) => encodeCall('OnCountryState', [`${s.country}|`], s.netId);

export const setPosCall = (s: Session) => encodeCall('OnSetPos', [{ type: 'vec2', value: [s.x, s.y] }], s.netId);

/** A speech bubble over a player: (netId, text, 0, 0) with unsigned zeros, netId -1 in the header. */
export const talkBubble = (netId: number, text: string) =>
  encodeCall('OnTalkBubble', [netId, text, { type: 'u32', value: 0 }, { type: 'u32', value: 0 }]);

/** Another player left the world. */
export const removeCall = (s: Session) => encodeCall('OnRemove', [`netID|${s.netId}\n`, `pId|${s.userId}\n`]);

/** A punch landed on a tile (tank 8, value 6): the client shows the crack and the hit. */
export const tileDamage = (s: Session, x: number, y: number) =>
  encodeTank(tankHeader({ tankType: TANK.tileDamage, netId: s.netId, value: 6, punchX: x, punchY: y }));
