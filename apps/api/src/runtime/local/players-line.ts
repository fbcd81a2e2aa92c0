import { ENGINE_LOG_LINE, ENGINE_PLAYERS_MESSAGE } from '@canopy/contract';

/** Where an INFO line's message starts: `<24-character ISO timestamp> [INFO] `. */
const INFO_MESSAGE_AT = 32;
const PREFIX = 'Players online: ';

/**
 * The player count an engine announces on a console line, or null for any other line. Every console line
 * passes here (up to tens of thousands a second), so a fixed-offset prefix check turns the rest away before
 * any regular expression runs.
 */
export function announcedPlayers(line: string): number | null {
  if (!line.startsWith(PREFIX, INFO_MESSAGE_AT)) return null;
  const log = ENGINE_LOG_LINE.exec(line);
  if (log?.[2] !== 'INFO') return null;
  const m = ENGINE_PLAYERS_MESSAGE.exec(log[3] ?? '');
  return m ? Number(m[1]) : null;
}
