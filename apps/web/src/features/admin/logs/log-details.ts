/** Longest value shown in a details cell before it is cut; the full text stays in the cell's title. */
export const DETAIL_VALUE_MAX = 80;

/** One `key: value` pair of an activity log entry's details. */
export interface DetailPair {
  key: string;
  value: string;
}

/** A details value as text: strings as they are, anything else as JSON (null, numbers, objects, lists). */
export function detailValueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** The details object as `key: value` pairs in the order the api sent them. */
export function detailPairs(details: Readonly<Record<string, unknown>>): DetailPair[] {
  return Object.entries(details).map(([key, value]) => ({ key, value: detailValueText(value) }));
}

/** Cuts a text to `max` characters with an ellipsis; shorter texts come back unchanged. */
export function truncateText(text: string, max: number = DETAIL_VALUE_MAX): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** The full details as one text, a pair a line: the cell's title, so a cut value can still be read whole. */
export function detailsTitle(details: Readonly<Record<string, unknown>>): string {
  return detailPairs(details)
    .map((pair) => `${pair.key}: ${pair.value}`)
    .join('\n');
}

/** Pairs a collapsed details cell shows; the rest wait behind its Show all button. */
export const DETAIL_PAIRS_SHOWN = 3;

/** Whether a details cell hides anything when collapsed (a pair past the first few, or a value cut short). */
export function detailsNeedExpand(pairs: readonly DetailPair[], max: number = DETAIL_VALUE_MAX): boolean {
  return (
    pairs.length > DETAIL_PAIRS_SHOWN || pairs.some((pair) => pair.value.length > max || pair.value.includes('\n'))
  );
}

/** An entry written as text comes as `{text}` (api: detailsOf): its one key says nothing, so the cell shows the text alone. */
export const isPlainText = (pairs: readonly DetailPair[]) => pairs.length === 1 && pairs[0]?.key === 'text';
