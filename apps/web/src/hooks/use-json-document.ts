import { useState } from 'react';
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
}

/** Holds a document editor's draft, its tab and the Raw JSON tab's text. */
export function useJsonDocument<Tab extends string>(
  initial: JsonObject,
  firstTab: Tab,
  rawTab: Tab,
): JsonDocument<Tab> {
  const [draft, setDraft] = useState(initial);
  const [tab, setTabState] = useState(firstTab);
  const [rawText, setRawText] = useState('');
  const [rawError, setRawError] = useState<string | null>(null);

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
  };
}
