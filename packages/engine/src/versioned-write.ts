import { versionedWriteCodes as codes, versionedWriteMessages as m } from '@canopy/contract/engine-constants';
import { EngineError } from './errors.ts';

/**
 * The revision a whole-object PUT was read at: the If-Match the api passed on (`?version=`) or the body's
 * version field; both may be sent but must agree. Undefined when neither names one.
 */
export function expectedVersion(ifMatch: string | undefined, body: number | undefined): number | undefined {
  if (ifMatch === undefined) return body;
  if (!/^[1-9][0-9]{0,15}$/.test(ifMatch)) throw new EngineError(400, m.badIfMatch, codes.badIfMatch);
  const header = Number(ifMatch);
  if (body !== undefined && body !== header) throw new EngineError(400, m.versionsDisagree, codes.mismatch);
  return header;
}

/**
 * Why a conditional write of a world or player was refused: it named no version but one is stored (428), the
 * stored one is another (409), or it is gone (409).
 */
export function versionConflict(
  kind: 'world' | 'player',
  expected: number | undefined,
  current: number | undefined,
): EngineError {
  if (expected === undefined)
    return new EngineError(428, m.versionRequired(kind === 'world' ? 'a world' : 'a player'), codes.required);
  if (current === undefined && kind === 'world') return new EngineError(409, m.worldGone, codes.conflict);
  return new EngineError(409, kind === 'world' ? m.worldChanged : m.playerChanged, codes.conflict);
}
