import { type World, type WorldPut, worldPutSchema } from '@canopy/contract';
import { type FormEvent, useState } from 'react';
import { EditorFooter } from '../../../components/editor-footer.tsx';
import { RawJsonEditor } from '../../../components/raw-json-editor.tsx';
import { type Tab, TabBar, useToast } from '../../../components/ui/index.ts';
import { useJsonDocument } from '../../../hooks/use-json-document.ts';
import { checkDocument, type JsonObject } from '../../../lib/json-draft.ts';
import { worldBody } from '../world-draft.ts';
import { WorldAdminsTab } from './world-admins-tab.tsx';
import { WorldAppearanceTab } from './world-appearance-tab.tsx';
import { WorldBlocksTab } from './world-blocks-tab.tsx';
import { WorldGeneralTab } from './world-general-tab.tsx';

type WorldTab = 'general' | 'appearance' | 'admins' | 'blocks' | 'raw';

const tabs: readonly Tab<WorldTab>[] = [
  { id: 'general', label: 'General' },
  { id: 'appearance', label: 'Appearance' },
  { id: 'admins', label: 'Admins' },
  { id: 'blocks', label: 'Block Properties' },
  { id: 'raw', label: 'Raw JSON' },
];

/** What every form tab of the world editor gets. */
export interface WorldTabProps {
  draft: JsonObject;
  update: (patch: JsonObject) => void;
  /** The first problem of each field, from the last refused save. */
  errors: Record<string, string>;
}

export interface WorldEditorFormProps {
  world: World;
  saving: boolean;
  /** The api's refusal of the last save, if any. */
  saveError: string | null;
  onSave: (world: WorldPut) => void;
  onCancel: () => void;
}

/** The loaded editor: five tabs over one draft, validated with the contract's schema on save. */
export function WorldEditorForm({ world, saving, saveError, onSave, onCancel }: WorldEditorFormProps) {
  const doc = useJsonDocument<WorldTab>(world, 'general', 'raw');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const toast = useToast();

  function submit(event: FormEvent) {
    event.preventDefault();
    const refuse = (message: string) => {
      setProblem(message);
      toast.error(message);
    };
    if (doc.saveBlocked) return refuse(doc.saveBlocked);
    const check = checkDocument(worldPutSchema, worldBody(doc.draft));
    setErrors(check.ok ? {} : check.fieldErrors);
    if (!check.ok) return refuse(check.message);
    setProblem(null);
    onSave(check.body);
  }

  const props: WorldTabProps = { draft: doc.draft, update: doc.update, errors };
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <TabBar tabs={tabs} active={doc.tab} onChange={doc.setTab} label="World settings" idPrefix="world" />
      <fieldset
        disabled={saving}
        role="tabpanel"
        id={`world-panel-${doc.tab}`}
        aria-labelledby={`world-tab-${doc.tab}`}
        className="min-h-72"
      >
        {doc.tab === 'general' && <WorldGeneralTab {...props} />}
        {doc.tab === 'appearance' && <WorldAppearanceTab {...props} />}
        {doc.tab === 'admins' && <WorldAdminsTab {...props} />}
        {doc.tab === 'blocks' && <WorldBlocksTab {...props} />}
        {doc.tab === 'raw' && <RawJsonEditor value={doc.rawText} error={doc.rawError} onChange={doc.editRaw} />}
      </fieldset>
      <EditorFooter saving={saving} problem={problem ?? saveError} onCancel={onCancel} saveTestId="world-save" />
    </form>
  );
}
