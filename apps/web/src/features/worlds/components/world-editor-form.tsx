import { type World, type WorldPut, worldPutSchema } from '@canopy/contract';
import { type DocumentTab, type DocumentTabProps, JsonDocumentForm } from '../../../components/json-document-form.tsx';
import { worldBody } from '../world-draft.ts';
import { WorldAdminsTab } from './world-admins-tab.tsx';
import { WorldAppearanceTab } from './world-appearance-tab.tsx';
import { WorldBlocksTab } from './world-blocks-tab.tsx';
import { WorldGeneralTab } from './world-general-tab.tsx';

/** What every form tab of the world editor gets. */
export type WorldTabProps = DocumentTabProps;

const tabs: readonly DocumentTab<'general' | 'appearance' | 'admins' | 'blocks'>[] = [
  { id: 'general', label: 'General', render: (p) => <WorldGeneralTab {...p} /> },
  { id: 'appearance', label: 'Appearance', render: (p) => <WorldAppearanceTab {...p} /> },
  { id: 'admins', label: 'Admins', render: (p) => <WorldAdminsTab {...p} /> },
  { id: 'blocks', label: 'Block Properties', render: (p) => <WorldBlocksTab {...p} /> },
];

export interface WorldEditorFormProps {
  world: World;
  saving: boolean;
  saveError: string | null;
  onSave: (world: WorldPut) => void;
  onCancel: () => void;
}

/** The loaded world editor: General, Appearance, Admins, Block Properties and Raw JSON over one draft. */
export function WorldEditorForm({ world, ...rest }: WorldEditorFormProps) {
  return (
    <JsonDocumentForm
      document={world}
      tabs={tabs}
      toBody={worldBody}
      schema={worldPutSchema}
      label="World settings"
      idPrefix="world"
      {...rest}
    />
  );
}
