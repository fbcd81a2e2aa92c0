// Whole-object saves are conditional on the version the client read (issue 21, docs/decisions/0035-versioned-writes.md):
// a world or player carries the engine's revision, a config file the hash of its content, the admin settings the
// hash of their values. GET answers it as an ETag and as a `version` field of the body; the save takes it back as
// If-Match or as that field, and a save of something that changed since is refused (409) instead of silently
// undoing the change.

/** The texts of a refused conditional save. */
export const versionedWriteMessages = {
  worldChanged:
    'This world changed in the game since you opened it. Reload to see the latest version, then make your change again.',
  worldGone: 'This world was deleted since you opened it. Reload the list to see the worlds there are now.',
  playerChanged:
    'This player changed in the game since you opened them. Reload to see the latest version, then make your change again.',
  newbieKitChanged:
    'The newbie kit was changed by someone else since you opened it. Reload to see the latest version, then make your change again.',
  customItemsChanged:
    'The custom items were changed by someone else since you opened them. Reload to see the latest version, then make your change again.',
  settingsChanged:
    'The settings were changed by another administrator since you opened them. Reload to see them, then make your change again.',
  /** 428: a whole-object save that names no version would overwrite whatever is there now. */
  versionRequired: (what: string) =>
    `Saving ${what} needs the version you read: send back the version field of the GET (or its ETag as If-Match).`,
  badIfMatch: 'If-Match must name one version, as the ETag of the GET gave it.',
  /** The editors' Reload after a 409. */
  reload: 'Reload',
  reloadedKept: 'Reloaded the latest version with your unsaved changes on top. Check them, then save again.',
  reloadDiscardTitle: 'Discard your changes?',
  reloadDiscard:
    'Your unsaved changes cannot be put back on top of the latest version (its size changed). Reload it and discard them?',
  reloadDiscardConfirm: 'Reload and discard',
  /** The Configuration tabs' Reload: their drafts are not merged, so it always asks. */
  reloadConfigDiscard: 'Reloading shows the latest version and discards the changes you have not saved. Reload?',
  versionsDisagree: 'The If-Match header and the version field name different versions.',
  /** 412: If-Match compares strongly (RFC 9110), so a weak tag never matches; our ETags are all strong. */
  weakIfMatch:
    'If-Match named a weak entity tag (W/…), which never matches: send back the ETag of the GET as it was given.',
} as const;

/** Error codes of a refused conditional save, for the web to branch on. */
export const versionedWriteCodes = {
  /** 409: what is stored is not the version the client read. */
  conflict: 'version_conflict',
  /** 428: the save named no version. */
  required: 'version_required',
  /** 400: If-Match and the body's version field name different versions. */
  mismatch: 'version_mismatch',
  /** 400: If-Match is not one entity tag (a list, `*`, garbage). */
  badIfMatch: 'bad_if_match',
  /** 412: If-Match named a weak entity tag, which never matches (strong comparison). */
  preconditionFailed: 'precondition_failed',
} as const;

/** The ETag header value of a version (a strong entity tag). */
export function etagOf(version: string | number): string {
  return `"${version}"`;
}

/** What versionFromIfMatch answers for a weak entity tag. */
export const WEAK_IF_MATCH = Object.freeze({ weak: true });

/**
 * The version an If-Match header names: undefined when there is no header, null when it is not one entity tag
 * (a list, `*` or garbage: the panel's GET gave one tag, and `*` would be the unconditional write this refuses),
 * WEAK_IF_MATCH for a weak tag (`W/"9"`): If-Match uses the strong comparison (RFC 9110 13.1.1), under which a weak tag
 * matches nothing, so the write is refused (412) rather than compared.
 */
export function versionFromIfMatch(
  header: string | string[] | undefined,
): string | undefined | null | typeof WEAK_IF_MATCH {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) return header.length === 1 ? versionFromIfMatch(header[0]) : null;
  if (/^\s*W\/"[\x21\x23-\x7e]{1,128}"\s*$/.test(header)) return WEAK_IF_MATCH;
  const m = /^\s*"([\x21\x23-\x7e]{1,128})"\s*$/.exec(header) ?? /^\s*([0-9a-f]{1,128})\s*$/i.exec(header);
  return m ? (m[1] as string) : null;
}
