import { type Player, type PlayerPut, playerFlagPattern, playerPutSchema } from '@canopy/contract';
import { useState } from 'react';
import { type DocumentTab, type DocumentTabProps, JsonDocumentForm } from '../../../components/json-document-form.tsx';
import type { JsonObject } from '../../../lib/json-draft.ts';
import { playerBody } from '../player-draft.ts';
import { PlayerFlagsTab } from './player-flags-tab.tsx';
import { PlayerGeneralTab } from './player-general-tab.tsx';
import { PlayerInventoryTab } from './player-inventory-tab.tsx';
import { PlayerStatsTab } from './player-stats-tab.tsx';

/** What every form tab of the player editor gets. */
export type PlayerTabProps = DocumentTabProps;

const tabs: readonly DocumentTab<'general' | 'stats' | 'flags' | 'inventory'>[] = [
  {
    id: 'general',
    label: 'General',
    fields: ['email', 'home_world', 'pass'],
    render: (p) => <PlayerGeneralTab {...p} />,
  },
  {
    id: 'stats',
    label: 'Stats & Bank',
    fields: ['level', 'gems', 'xp', 'wl_bank_amount', 'dl_bank_amount'],
    render: (p) => <PlayerStatsTab {...p} />,
  },
  {
    id: 'flags',
    label: 'Roles & Titles',
    fields: (key) => playerFlagPattern.test(key),
    render: (p) => <PlayerFlagsTab {...p} />,
  },
  { id: 'inventory', label: 'Inventory', fields: ['inventory'], render: (p) => <PlayerInventoryTab {...p} /> },
];

export interface PlayerEditorFormProps {
  player: Player;
  saving: boolean;
  saveError: string | null;
  onSave: (player: PlayerPut) => void;
  onCancel: () => void;
  onReload?: (() => void) | undefined;
}

/** The loaded player editor: General, Stats & Bank, Roles & Titles, Inventory and Raw JSON over one draft. */
export function PlayerEditorForm({ player, onSave, ...rest }: PlayerEditorFormProps) {
  // The ban state is compared with the record the draft started from: an Unban while the editor is
  // open refetches `player`, and the draft's old value must not count as a change that bans again.
  const [loaded] = useState(player);
  return (
    <JsonDocumentForm
      document={player as JsonObject}
      tabs={tabs}
      toBody={(draft) => playerBody(draft, loaded)}
      schema={playerPutSchema}
      label="Player record"
      idPrefix="player"
      onSave={(body) => onSave(body as PlayerPut)}
      {...rest}
    />
  );
}
