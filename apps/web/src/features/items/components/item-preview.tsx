import { ITEM_SPRITE_DRAWN_SIZE, type Item } from '@canopy/contract';
import { useState } from 'react';
import { Modal } from '../../../components/ui/index.ts';
import { describeItemKind } from '../item-filters.ts';
import { ItemSprite } from './item-sprite.tsx';
import { ServerIp } from './server-ip.tsx';

/** The item preview modal: the sprite at 96x96 and the item's fields. */
export function ItemPreview({ item, onClose }: { item: Item | null; onClose: () => void }) {
  return (
    <Modal open={item !== null} title={item?.name ?? ''} onClose={onClose}>
      {/* Keyed by item: a sprite failure belongs to its item, not to the next one opened. */}
      {item && <PreviewBody key={item.id} item={item} />}
    </Modal>
  );
}

function PreviewBody({ item }: { item: Item }) {
  const [spriteError, setSpriteError] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-4" data-testid="item-preview">
      <div className="flex items-center gap-5">
        <div className="rounded-lg border border-line bg-canvas p-3">
          <ItemSprite
            item={item}
            size={ITEM_SPRITE_DRAWN_SIZE}
            data-testid="item-preview-sprite"
            onError={setSpriteError}
          />
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-ink-muted">ID</dt>
          <dd className="font-mono text-ink">{item.id}</dd>
          <dt className="text-ink-muted">Rarity</dt>
          <dd className="text-ink">{item.rarity}</dd>
          <dt className="text-ink-muted">Type</dt>
          <dd className="text-ink">{describeItemKind(item.item_kind, item.clothing_type)}</dd>
          <dt className="text-ink-muted">Texture</dt>
          <dd className="break-all font-mono text-ink text-xs">
            {item.texture ? `${item.texture} (${item.texture_x}, ${item.texture_y})` : '—'}
          </dd>
        </dl>
      </div>
      {spriteError && (
        <p role="alert" className="text-red-400 text-sm">
          {spriteError}
        </p>
      )}
      <ServerIp compact />
    </div>
  );
}
