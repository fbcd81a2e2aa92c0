// What the real client 5.51 (protocol 225) sends: its version fields, its two login texts in their real order, and
// the message type of each action. Sources per fact: the README's table.

import { encodeText } from './messages.ts';
import type { VariantValue } from './variant.ts';

/** The client this package behaves like. */
export const CLIENT_VERSION = '5.51';
export const CLIENT_PROTOCOL = 225;
/** Windows: platform 0 in server_data.php, `0,1,1` as platformID in the login texts. */
export const CLIENT_PLATFORM = '0';
export const CLIENT_PLATFORM_ID = '0,1,1';

export type Lines = [string, string][];

export interface FrontLoginFields {
  token: string;
  protocol?: number;
  platformId?: string;
}

/** The first text to the front (type 2): `protocol|225`, `ltoken|<token>`, `platformID|0,1,1`, in that order. */
export function frontLoginLines(f: FrontLoginFields): Lines {
  return [
    ['protocol', String(f.protocol ?? CLIENT_PROTOCOL)],
    ['ltoken', f.token],
    ['platformID', f.platformId ?? CLIENT_PLATFORM_ID],
  ];
}

/** Where OnSendToServer sends the client, and what the game login text repeats of it. */
export interface SendToServer {
  host: string;
  port: number;
  /** The token and user id arguments, as text. */
  token: string;
  user: string;
  /** The parts of the `ip|doorId|UUIDToken` argument. */
  doorId: string;
  uuidToken: string;
  /** The GrowID (the last argument); empty when absent. */
  name: string;
}

/**
 * Reads OnSendToServer(port, token, user, `ip|doorId|UUIDToken`, lmode, name)'s arguments (after its name); an empty
 * or `0.0.0.0` ip means the front's own host. Throws when the port is not a number in 1..65535.
 */
export function parseSendToServer(args: readonly VariantValue[], frontHost: string): SendToServer {
  const [port, token, user, address, , name] = args;
  if (typeof port !== 'number' || port <= 0 || port > 65535) {
    throw new Error(`bad OnSendToServer: ${JSON.stringify(args)}`);
  }
  const [ip = '', doorId = '0', uuidToken = ''] = String(address ?? '').split('|');
  return {
    host: ip === '' || ip === '0.0.0.0' ? frontHost : ip,
    port,
    token: String(token ?? 0),
    user: String(user ?? 0),
    doorId,
    uuidToken,
    name: String(name ?? ''),
  };
}

export interface GameLoginFields {
  /** The GrowID and password fields stay empty: the token stands for them. */
  tankIdName?: string;
  tankIdPass?: string;
  requestedName?: string;
  protocol?: number;
  gameVersion?: string;
  meta?: string;
  /** From OnSendToServer: the user id and token arguments, and the `ip|doorId|UUIDToken` string's parts. */
  user: string;
  token: string;
  uuidToken: string;
  doorId: string;
  /** Device fields the real client fills (hardware hashes, mac, country); stable per bot. */
  mac?: string;
  rid?: string;
  wk?: string;
  country?: string;
}

/**
 * The login text to the game server (type 2), every field the real client sends in its order:
 * `tankIDName, tankIDPass, requestedName, f, protocol, game_version, fz, cbits, player_age, GDPR, FCMToken,
 * category, totalPlaytime, klv, hash2, meta, fhash, rid, platformID, deviceVersion, country, hash, mac, wk, zf,
 * lmode, user, token, UUIDToken, doorID, aat`.
 */
export function gameLoginLines(f: GameLoginFields): Lines {
  return [
    ['tankIDName', f.tankIdName ?? ''],
    ['tankIDPass', f.tankIdPass ?? ''],
    ['requestedName', f.requestedName ?? 'Bot'],
    ['f', '1'],
    ['protocol', String(f.protocol ?? CLIENT_PROTOCOL)],
    ['game_version', f.gameVersion ?? CLIENT_VERSION],
    ['fz', '22243512'],
    ['cbits', '1024'],
    ['player_age', '20'],
    ['GDPR', '2'],
    ['FCMToken', ''],
    ['category', '_-5100'],
    ['totalPlaytime', '0'],
    ['klv', '0000000000000000000000000000000000000000000000000000000000000000'],
    ['hash2', '0'],
    ['meta', f.meta ?? ''],
    ['fhash', '-716928004'],
    ['rid', f.rid ?? '00000000000000000000000000000000'],
    ['platformID', CLIENT_PLATFORM_ID],
    ['deviceVersion', '0'],
    ['country', f.country ?? 'us'],
    ['hash', '0'],
    ['mac', f.mac ?? '02:00:00:00:00:00'],
    ['wk', f.wk ?? '00000000000000000000000000000000'],
    ['zf', '0'],
    ['lmode', '1'],
    ['user', f.user],
    ['token', f.token],
    ['UUIDToken', f.uuidToken],
    ['doorID', f.doorId],
    ['aat', '2'],
  ];
}

/**
 * The message type the real client sends each action with (domain notes, "Packets"): type 2 (generic text) for
 * enter_game, refresh_item_data, input and dialog_return; type 3 (game message) for join_request, quit_to_exit and
 * quit.
 */
export const ACTION_MESSAGE_TYPE = {
  enter_game: 2,
  refresh_item_data: 2,
  input: 2,
  dialog_return: 2,
  join_request: 3,
  quit_to_exit: 3,
  quit: 3,
} as const;

export type ActionName = keyof typeof ACTION_MESSAGE_TYPE;

/** `action|<name>` plus its lines (already `key|value` joined), with the message type the real client uses. */
export function encodeAction(action: ActionName, rest = ''): Buffer {
  return encodeText(ACTION_MESSAGE_TYPE[action], rest === '' ? `action|${action}` : `action|${action}\n${rest}`);
}

/** Join: `action|join_request\nname|W\ninvitedWorld|0` (type 3). */
export const joinRequest = (world: string): Buffer => encodeAction('join_request', `name|${world}\ninvitedWorld|0`);

/** Chat: `action|input\n|text|...` (type 2): the real client writes an empty key before `text`. */
export const chatInput = (text: string): Buffer => encodeAction('input', `|text|${text}`);
