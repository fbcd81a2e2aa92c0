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
  {
    id: 'general',
    label: 'General',
    fields: ['owner', 'entry_level', 'ct', 'weather', 'music_bpm'],
    render: (p) => <WorldGeneralTab {...p} />,
  },
  {
    id: 'appearance',
    label: 'Appearance',
    fields: ['r', 'g', 'b', 'w_s'],
    render: (p) => <WorldAppearanceTab {...p} />,
  },
  { id: 'admins', label: 'Admins', fields: ['admins'], render: (p) => <WorldAdminsTab {...p} /> },
  { id: 'blocks', label: 'Block Properties', fields: ['blocks'], render: (p) => <WorldBlocksTab {...p} /> },
];

export interface WorldEditorFormProps {
  world: World;
  saving: boolean;
  saveError: string | null;
  onSave: (world: WorldPut) => void;
  onCancel: () => void;
  onReload?: (() => void) | undefined;
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
