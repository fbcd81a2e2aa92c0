/** The ban action a player row offers: Ban for a player in good standing, Unban for a banned one. */
export function banActionOf(player: { banned: boolean }): 'ban' | 'unban' {
  return player.banned ? 'unban' : 'ban';
}
