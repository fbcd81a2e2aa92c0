/**
 * The game client Canopy targets (docs/game-protocol.md, "Target client"). The engine and the gateway's front
 * both check the `protocol|` a client sends: older clients read world data and menus differently, so they get
 * a clear message instead of a world they cannot draw.
 */
export const GAME_CLIENT = { version: '5.51', protocol: 225 } as const;

/** Oldest protocol accepted. */
export const MIN_GAME_PROTOCOL = GAME_CLIENT.protocol;

/** Shown in the game's console to a client older than MIN_GAME_PROTOCOL (or one that names no protocol). */
export const OUTDATED_CLIENT_MESSAGE =
  `\`4Your game is too old for this server.\`\` It needs Growtopia ${GAME_CLIENT.version} ` +
  `(protocol ${GAME_CLIENT.protocol}) or newer: update the game, then connect again.`;

/** Whether a login text's `protocol|` value is one Canopy speaks. */
export function supportedProtocol(value: string | undefined): boolean {
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return false;
  return Number(value) >= MIN_GAME_PROTOCOL;
}
