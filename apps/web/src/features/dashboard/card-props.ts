import type { Profile, Settings } from '@canopy/contract';

/** What the dashboard's account cards (Server Time, no server) are drawn from. */
export interface AccountCardProps {
  profile: Profile;
  settings: Settings;
  /** The server time's phase is grace or over: the account's time ran out. */
  timeRanOut: boolean;
}
