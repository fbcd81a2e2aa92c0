import { deriveControlSecret } from '../auth/secret.ts';
import type { RuntimeState } from '../runtime/types.ts';
import type { ServerRow } from './servers.repo.ts';

/**
 * The runtime's view of a stored server. Its control secret is derived from the host control key
 * (ADR 0011); only a server created before that keeps a stored one, until the registry drops it.
 */
export const toSpec = (s: ServerRow, controlKey: string) => ({
  id: s.id,
  name: s.name,
  ownerId: s.owner_id,
  gamePort: Number(s.game_port),
  secret: s.control_secret !== '' ? s.control_secret : deriveControlSecret(controlKey, s.id),
  lastCrashAt: s.last_crash_at === null ? null : Number(s.last_crash_at),
});

/** A status feed entry: name, status, players, version. */
export const feedEntry = (name: string, state: RuntimeState) => ({
  name,
  status: state.status,
  players: state.players,
  version: state.version,
});
