import { useState } from 'react';
import { changedKeys, rebaseDraft } from '../lib/draft-rebase.ts';
import { type JsonObject, parseJsonObject, saveBlockReason, toEditableJson } from '../lib/json-draft.ts';

/** The draft of a document editor with tabs, one of which edits the raw JSON. */
export interface JsonDocument<Tab extends string> {
  draft: JsonObject;
  /** Merges fields into the draft (the form tabs). */
  update(patch: JsonObject): void;
  tab: Tab;
  /** Switches tab; entering the Raw JSON tab writes the current draft into its text. */
  setTab(tab: Tab): void;
  rawText: string;
  /** 'Invalid JSON format.' while the text does not parse. */
  rawError: string | null;
  /** Edits the raw text; each text that parses becomes the draft. */
  editRaw(text: string): void;
  /** Why Save is refused right now ('Cannot save, JSON is invalid.'), or null. */
  saveBlocked: string | null;
  /** True when the draft differs from the version it started from. */
  dirty: boolean;
  /**
   * Moves the draft onto a newer version of the document, its unsaved changes put back on top (draft-rebase.ts);
   * false, changing nothing, when they cannot be put back simply.
   */
  rebase(fresh: JsonObject): boolean;
  /** Starts over from a version of the document, dropping the unsaved changes. */
  replace(fresh: JsonObject): void;
}

/** Holds a document editor's draft, its tab and the Raw JSON tab's text. */
export function useJsonDocument<Tab extends string>(
  initial: JsonObject,
  firstTab: Tab,
  rawTab: Tab,
): JsonDocument<Tab> {
  const [draft, setDraft] = useState(initial);
  // The version the draft started from: what Reload compares the draft with to find the user's changes.
  const [base, setBase] = useState(initial);
  const [tab, setTabState] = useState(firstTab);
  const [rawText, setRawText] = useState('');
  const [rawError, setRawError] = useState<string | null>(null);
  const restart = (next: JsonObject, from: JsonObject) => {
    setDraft(next);
    setBase(from);
    // The Raw JSON tab shows the new draft (its text was the old one's).
    setRawText(toEditableJson(next));
    setRawError(null);
  };

  return {
    draft,
    update: (patch) => setDraft((current) => ({ ...current, ...patch })),
    tab,
    setTab(next) {
      if (next === rawTab && tab !== rawTab) {
        setRawText(toEditableJson(draft));
        setRawError(null);
      }
      setTabState(next);
    },
    rawText,
    rawError,
    editRaw(text) {
      setRawText(text);
      const parsed = parseJsonObject(text);
      if (parsed.ok) setDraft(parsed.value);
      setRawError(parsed.ok ? null : parsed.error);
    },
    saveBlocked: saveBlockReason(tab === rawTab, rawError),
    dirty: changedKeys(base, draft).length > 0,
    rebase(fresh) {
      const rebased = rebaseDraft(base, draft, fresh);
      if (rebased.simple) restart(rebased.draft, fresh);
      return rebased.simple;
    },
    replace: (fresh) => restart(fresh, fresh),
  };
}
