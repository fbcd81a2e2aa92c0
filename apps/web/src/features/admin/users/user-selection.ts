/**
 * The Users tab's selection: Discord IDs, kept across pages and searches (a Set, never mutated: React state).
 */
export type Selection = ReadonlySet<string>;

/** The selection with `id` added, or removed when it was in. */
export function toggleOne(selection: Selection, id: string): Selection {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Whether every user of the page is selected (false for an empty page, so its header box stays clear). */
export function pageSelected(selection: Selection, pageIds: readonly string[]): boolean {
  return pageIds.length > 0 && pageIds.every((id) => selection.has(id));
}

/** Whether some but not all users of the page are selected (the header box's mixed state). */
export function pagePartlySelected(selection: Selection, pageIds: readonly string[]): boolean {
  return !pageSelected(selection, pageIds) && pageIds.some((id) => selection.has(id));
}

/** The header box: selects the whole page, or clears the page when it was all selected; other pages keep theirs. */
export function togglePage(selection: Selection, pageIds: readonly string[]): Selection {
  const next = new Set(selection);
  if (pageSelected(selection, pageIds)) for (const id of pageIds) next.delete(id);
  else for (const id of pageIds) next.add(id);
  return next;
}
