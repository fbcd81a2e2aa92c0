import { versionedWriteMessages as v } from '@canopy/contract';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useJsonDocument } from '../hooks/use-json-document.ts';
import {
  checkDocument,
  type DocumentSchema,
  firstErrorTab,
  type JsonObject,
  type TabFields,
} from '../lib/json-draft.ts';
import { EditorFooter } from './editor-footer.tsx';
import { RawJsonEditor } from './raw-json-editor.tsx';
import { ConfirmDialog, type Tab, TabBar, useToast } from './ui/index.ts';

/** What every form tab of a document editor gets. */
export interface DocumentTabProps {
  draft: JsonObject;
  update: (patch: JsonObject) => void;
  /** The first problem of each field, from the last refused save. */
  errors: Record<string, string>;
}

/** A form tab: its label and what it shows. The Raw JSON tab is added by the editor itself. */
export interface DocumentTab<T extends string> extends Tab<T> {
  /** The draft fields this tab shows: a refused save opens the tab of its first problem. */
  fields: TabFields;
  render: (props: DocumentTabProps) => ReactNode;
}

export interface JsonDocumentFormProps<T extends string, B> {
  document: JsonObject;
  tabs: readonly DocumentTab<T>[];
  /** The body to validate and save, made from the draft. */
  toBody: (draft: JsonObject) => JsonObject;
  schema: DocumentSchema<B>;
  /** Accessible name of the tab bar, and the prefix of tab ids and test ids. */
  label: string;
  idPrefix: string;
  saving: boolean;
  /** The api's refusal of the last save, if any. */
  saveError: string | null;
  onSave: (body: B) => void;
  onCancel: () => void;
  /**
   * Set when the last save was refused because the document changed since it was opened: Reload fetches the
   * latest version, which arrives as a new `document`; the unsaved changes are put back on top of it.
   */
  onReload?: (() => void) | undefined;
}

const RAW = 'raw';

/**
 * The loaded world or player editor: form tabs and a Raw JSON tab over one draft, validated with the
 * contract's schema on save (refusals show inline and as a toast).
 */
export function JsonDocumentForm<T extends string, B>(p: JsonDocumentFormProps<T, B>) {
  const first = p.tabs[0]?.id ?? (RAW as T);
  const doc = useJsonDocument<T | typeof RAW>(p.document, first, RAW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const allTabs: readonly Tab<T | typeof RAW>[] = [...p.tabs, { id: RAW, label: 'Raw JSON' }];
  // A newer version of the document (Reload, or a refetch after an Unban): the draft moves onto it with its unsaved
  // changes; when they cannot be put back simply, the user is asked before they are discarded.
  const shown = useRef(p.document);
  const [discarding, setDiscarding] = useState<JsonObject | null>(null);
  useEffect(() => {
    if (p.document === shown.current) return;
    shown.current = p.document;
    const dirty = doc.dirty;
    if (!doc.rebase(p.document)) return setDiscarding(p.document);
    setProblem(null);
    if (dirty) toast.info(v.reloadedKept);
  }, [p.document, doc, toast]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const refuse = (message: string) => {
      setProblem(message);
      toast.error(message);
    };
    if (doc.saveBlocked) return refuse(doc.saveBlocked);
    const check = checkDocument(p.schema, p.toBody(doc.draft));
    setErrors(check.ok ? {} : check.fieldErrors);
    if (!check.ok) {
      // Open the tab of the first problem so that its message shows beside its field, then focus it.
      const first = firstErrorTab(p.tabs, check.fieldErrors, RAW as T | typeof RAW);
      if (first) doc.setTab(first.tab);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return refuse(first?.message ?? check.message);
    }
    setProblem(null);
    p.onSave(check.body);
  }

  const tab = p.tabs.find((t) => t.id === doc.tab);
  return (
    <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <TabBar tabs={allTabs} active={doc.tab} onChange={doc.setTab} label={p.label} idPrefix={p.idPrefix} />
      <fieldset
        disabled={p.saving}
        role="tabpanel"
        id={`${p.idPrefix}-panel-${doc.tab}`}
        aria-labelledby={`${p.idPrefix}-tab-${doc.tab}`}
        className="min-h-72"
      >
        {tab ? (
          tab.render({ draft: doc.draft, update: doc.update, errors })
        ) : (
          <RawJsonEditor value={doc.rawText} error={doc.rawError} onChange={doc.editRaw} />
        )}
      </fieldset>
      <EditorFooter
        saving={p.saving}
        problem={problem ?? p.saveError}
        onCancel={p.onCancel}
        saveTestId={`${p.idPrefix}-save`}
        onReload={p.onReload}
        reloadTestId={`${p.idPrefix}-reload`}
      />
      <ConfirmDialog
        open={discarding !== null}
        title={v.reloadDiscardTitle}
        message={v.reloadDiscard}
        confirmLabel={v.reloadDiscardConfirm}
        tone="danger"
        onCancel={() => setDiscarding(null)}
        onConfirm={() => {
          if (discarding) doc.replace(discarding);
          setDiscarding(null);
          setProblem(null);
        }}
      />
    </form>
  );
}
