import { ITEM_SPRITE_SIZE, type Item } from '@canopy/contract';
import { useEffect, useRef, useState } from 'react';
import { spriteSheets } from '../api/sprites.ts';

export interface ItemSpriteProps {
  item: Pick<Item, 'name' | 'texture' | 'texture_x' | 'texture_y'>;
  /** Drawn size in CSS pixels; the 32x32 cell is scaled up without smoothing. */
  size: number;
  /** Called once with the failure's text when the sprite cannot be drawn. */
  onError?: (message: string) => void;
  'data-testid'?: string;
}

/** The item's 32x32 sprite from its texture sheet, scaled up pixelated onto a canvas of `size` pixels. */
export function ItemSprite({ item, size, onError, 'data-testid': testId }: ItemSpriteProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'failed'>('loading');
  const { texture, texture_x: x, texture_y: y } = item;
  const reportError = useRef(onError);
  reportError.current = onError;

  useEffect(() => {
    let live = true;
    setState('loading');
    spriteSheets
      .sprite({ texture, texture_x: x, texture_y: y })
      .then((rgba) => {
        const target = canvas.current?.getContext('2d');
        if (!live || !target) return;
        const cell = document.createElement('canvas');
        cell.width = ITEM_SPRITE_SIZE;
        cell.height = ITEM_SPRITE_SIZE;
        const data = new ImageData(new Uint8ClampedArray(rgba), ITEM_SPRITE_SIZE, ITEM_SPRITE_SIZE);
        cell.getContext('2d')?.putImageData(data, 0, 0);
        target.imageSmoothingEnabled = false;
        target.clearRect(0, 0, size, size);
        target.drawImage(cell, 0, 0, size, size);
        setState('drawn');
      })
      .catch((error: Error) => {
        if (!live) return;
        setState('failed');
        reportError.current?.(error.message);
      });
    return () => {
      live = false;
    };
  }, [texture, x, y, size]);

  return (
    <div className="relative shrink-0" style={{ width: size, height: size }}>
      <canvas
        ref={canvas}
        width={size}
        height={size}
        role="img"
        aria-label={`Sprite of ${item.name}`}
        data-testid={testId}
        data-state={state}
        className="h-full w-full"
        style={{ imageRendering: 'pixelated' }}
      />
      {state !== 'drawn' && (
        <div
          aria-hidden="true"
          className={`absolute inset-0 rounded bg-surface-raised ${state === 'loading' ? 'animate-pulse' : ''}`}
        />
      )}
    </div>
  );
}
