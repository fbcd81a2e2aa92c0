import { type Player, type PlayerPut, playerPutSchema } from '@canopy/contract';
import { type FormEvent, useState } from 'react';
import { EditorFooter } from '../../../components/editor-footer.tsx';
import { RawJsonEditor } from '../../../components/raw-json-editor.tsx';
import { type Tab, TabBar, useToast } from '../../../components/ui/index.ts';
import { useJsonDocument } from '../../../hooks/use-json-document.ts';
import { checkDocument, type JsonObject } from '../../../lib/json-draft.ts';
import { playerBody } from '../player-draft.ts';
import { PlayerFlagsTab } from './player-flags-tab.tsx';
import { PlayerGeneralTab } from './player-general-tab.tsx';
import { PlayerInventoryTab } from './player-inventory-tab.tsx';
import { PlayerStatsTab } from './player-stats-tab.tsx';

type PlayerTab = 'general' | 'stats' | 'flags' | 'inventory' | 'raw';

const tabs: readonly Tab<PlayerTab>[] = [
  { id: 'general', label: 'General' },
  { id: 'stats', label: 'Stats & Bank' },
  { id: 'flags', label: 'Roles & Titles' },
  { id: 'inventory', label: 'Inventory' },
  { id: 'raw', label: 'Raw JSON' },
];

/** What every form tab of the player editor gets. */
export interface PlayerTabProps {
  draft: JsonObject;
  update: (patch: JsonObject) => void;
  /** The first problem of each field, from the last refused save. */
  errors: Record<string, string>;
}

export interface PlayerEditorFormProps {
  player: Player;
  saving: boolean;
  /** The api's refusal of the last save, if any. */
  saveError: string | null;
  onSave: (player: PlayerPut) => void;
  onCancel: () => void;
}

/** The loaded editor: five tabs over one draft, validated with the contract's schema on save. */
export function PlayerEditorForm({ player, saving, saveError, onSave, onCancel }: PlayerEditorFormProps) {
  const doc = useJsonDocument<PlayerTab>(player, 'general', 'raw');
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
    const check = checkDocument(playerPutSchema, playerBody(doc.draft, player));
    setErrors(check.ok ? {} : check.fieldErrors);
    if (!check.ok) return refuse(check.message);
    setProblem(null);
    onSave(check.body as PlayerPut);
  }

  const props: PlayerTabProps = { draft: doc.draft, update: doc.update, errors };
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <TabBar tabs={tabs} active={doc.tab} onChange={doc.setTab} label="Player record" idPrefix="player" />
      <fieldset
        disabled={saving}
        role="tabpanel"
        id={`player-panel-${doc.tab}`}
        aria-labelledby={`player-tab-${doc.tab}`}
        className="min-h-72"
      >
        {doc.tab === 'general' && <PlayerGeneralTab {...props} />}
        {doc.tab === 'stats' && <PlayerStatsTab {...props} />}
        {doc.tab === 'flags' && <PlayerFlagsTab {...props} />}
        {doc.tab === 'inventory' && <PlayerInventoryTab {...props} />}
        {doc.tab === 'raw' && <RawJsonEditor value={doc.rawText} error={doc.rawError} onChange={doc.editRaw} />}
      </fieldset>
      <EditorFooter saving={saving} problem={problem ?? saveError} onCancel={onCancel} saveTestId="player-save" />
    </form>
  );
}
