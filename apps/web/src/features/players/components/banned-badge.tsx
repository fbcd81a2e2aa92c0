/** Marks a banned player in the list and in the editor. */
export function BannedBadge() {
  return (
    <span
      data-testid="player-banned"
      className="rounded-full bg-red-500/15 px-2 py-0.5 font-medium text-red-300 text-xs ring-1 ring-red-500/30"
    >
      Banned
    </span>
  );
}
