import { serverPageMessages } from '@canopy/contract';

// The world and player editors edit one JSON document: the form tabs and the Raw JSON tab write the
// same draft, and a bulk edit or a pasted document replaces it wholesale. Player flag keys contain
// dots ('Role.VIP'), which react-hook-form reads as paths, so the draft is plain state and the
// contract's schema validates it on save.

/** A JSON object as the editors hold it (unvalidated until saved). */
export type JsonObject = Record<string, unknown>;

/** The result of reading the Raw JSON tab. */
export type JsonParse = { ok: true; value: JsonObject } | { ok: false; error: string };

/** Parses the Raw JSON tab's text; anything but a JSON object is 'Invalid JSON format.' */
export function parseJsonObject(text: string): JsonParse {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return { ok: true, value: value as JsonObject };
  } catch {
    // Falls through to the spec's message.
  }
  return { ok: false, error: serverPageMessages.invalidJson };
}

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

function format(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every(isScalar)) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + JSON.stringify(v)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Pretty JSON for the Raw JSON tab that stays readable for a world's thousands of tiles: objects
 * are indented, and each element of an array of objects or pairs takes exactly one line.
 */
export function toEditableJson(value: unknown): string {
  return format(value, '');
}

/** Why Save is refused: invalid JSON blocks saving only while the Raw JSON tab is open. */
export function saveBlockReason(onRawTab: boolean, rawError: string | null): string | null {
  return onRawTab && rawError ? serverPageMessages.cannotSaveInvalidJson : null;
}

/** A validation problem as zod reports it. */
export interface DocumentIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Anything with a zod-style safeParse that reports issues. */
export interface DocumentSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly DocumentIssue[] } };
}

/** A draft checked against the contract: the body to send, or the first problem and one per field. */
export type DocumentCheck<T> =
  | { ok: true; body: T }
  | { ok: false; message: string; fieldErrors: Record<string, string> };

// Nested problems say which entry of a list they are about, in the words of the editor.
const entryNames: Record<string, string> = { blocks: 'Tile', inventory: 'Inventory entry', admins: 'Admin' };
// zod's own wording, which names no field; the contract's messages are sentences that do.
const generic = /^(Invalid input|Too |Invalid |Unrecognized)/;

/**
 * One issue as a sentence a user can act on. The contract's messages for top-level fields already
 * name the field as the form labels it ('Red must be between 0 and 255.') and are kept as they are;
 * a problem inside a list names the entry ('Tile 5: o must be 0 or 1.'); anything else gets its
 * path in front.
 */
export function describeIssue(issue: DocumentIssue): string {
  const [top, index] = issue.path;
  const path = issue.path.map(String).join('.');
  if (!path) return issue.message;
  if (issue.path.length === 1 && (!generic.test(issue.message) || issue.message.startsWith(String(top))))
    return issue.message;
  const entry = entryNames[String(top)];
  if (entry && typeof index === 'number' && !generic.test(issue.message))
    return `${entry} ${index + 1}: ${issue.message}`;
  return `${path}: ${issue.message}`;
}

/** Validates a draft with a contract schema (the api checks again; this only answers sooner). */
export function checkDocument<T>(schema: DocumentSchema<T>, draft: JsonObject): DocumentCheck<T> {
  const parsed = schema.safeParse(draft);
  if (parsed.success) return { ok: true, body: parsed.data };
  // One message per top-level field (the first); a cleared number input leaves NaN, which the
  // contract reports as 'X must be a whole number.'.
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    fieldErrors[key] ??= describeIssue(issue);
  }
  const first = Object.values(fieldErrors)[0];
  return { ok: false, message: first ?? serverPageMessages.invalidJson, fieldErrors };
}

/** Which draft fields a form tab shows: a list of keys, or a test (the player's Role.* and Title.* flags). */
export type TabFields = readonly string[] | ((field: string) => boolean);

const shows = (fields: TabFields, key: string) => (typeof fields === 'function' ? fields(key) : fields.includes(key));

/**
 * The tab to open after a refused save and the problem to announce: the first tab (in tab order)
 * showing a field with a problem, and that field's message; a problem no form tab shows (an unknown
 * key, the size of a world) opens the Raw JSON tab. Null when there is no problem.
 */
export function firstErrorTab<T extends string>(
  tabs: readonly { id: T; fields: TabFields }[],
  fieldErrors: Record<string, string>,
  rawTab: T,
): { tab: T; field: string; message: string } | null {
  const keys = Object.keys(fieldErrors);
  for (const tab of tabs) {
    const field = keys.find((key) => shows(tab.fields, key));
    if (field !== undefined) return { tab: tab.id, field, message: fieldErrors[field] ?? '' };
  }
  const field = keys[0];
  return field === undefined ? null : { tab: rawTab, field, message: fieldErrors[field] ?? '' };
}

/** A draft field shown in a text input. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

/** A draft field shown in a number input ('' when it is not a finite number). */
export function asNumberText(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** What a number input writes into the draft: the number, or NaN for an empty or unreadable entry (refused on save). */
export function fromNumberText(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** A draft field read as a list (anything else is an empty list). */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
