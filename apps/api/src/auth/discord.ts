import { type DiscordUser, discordUserSchema, messages } from '@canopy/contract';
import { AppError, badRequest, unauthorized } from '../errors.ts';

/** Asks Discord (or whatever speaks its API at `apiBase`) who owns an access token. */
export async function fetchDiscordUser(apiBase: string, accessToken: string): Promise<DiscordUser> {
  // A header cannot carry such a token, and fetch would fail as if Discord were down.
  if (!/^[\x21-\x7e]+$/.test(accessToken))
    throw badRequest('The access token is malformed: it must be printable ASCII without spaces.');
  let res: Response;
  try {
    res = await fetch(`${apiBase}/users/@me`, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(8000),
    });
  } catch {
    throw new AppError(502, 'discord_unavailable', messages.discordUnavailable);
  }
  if (res.status === 401 || res.status === 403) throw unauthorized(messages.discordTokenInvalid, 'discord_token');
  if (!res.ok) throw new AppError(502, 'discord_unavailable', messages.discordUnavailable);
  const parsed = discordUserSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new AppError(502, 'discord_unavailable', messages.discordUnavailable);
  return parsed.data;
}
