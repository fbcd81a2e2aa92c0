import { customItemsMessages as t } from '@canopy/contract';
import type { RgbaImage } from '@canopy/formats';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { Button, Card, Input, useToast } from '../../../components/ui/index.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useCreateCustomItem } from '../api/custom-items.ts';
import { defaultAdvancedOptions, textureCellError, textureProperties, textureRarity } from '../custom-items-logic.ts';
import { buildRttexBase64, decodePngFile, TextureImageError } from '../custom-texture-image.ts';
import { ApplyNote } from './apply-note.tsx';
import { CustomTextureAdvanced } from './custom-texture-advanced.tsx';

/** Draws the decoded image on the preview canvas (CSS scales it to 128x128, pixelated). */
function Preview({ image }: { image: RgbaImage }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    context.putImageData(new ImageData(new Uint8ClampedArray(image.rgba), image.width, image.height), 0, 0);
  }, [image]);
  return (
    <canvas
      ref={canvas}
      width={image.width}
      height={image.height}
      data-testid="custom-texture-preview"
      className="size-32 rounded border border-line bg-canvas object-contain [image-rendering:pixelated]"
    />
  );
}

/** The Custom Textures tab: a PNG becomes a new item with its own texture, then the server restarts. */
export function CustomTexturesTab() {
  const { profile } = useRegisteredProfile();
  const toast = useToast();
  const create = useCreateCustomItem(profile.id);
  const picker = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<(RgbaImage & { file: string }) | null>(null);
  const [dragging, setDragging] = useState(false);
  const [name, setName] = useState('');
  const [rarity, setRarity] = useState('999');
  const [options, setOptions] = useState(defaultAdvancedOptions);
  const [building, setBuilding] = useState(false);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    try {
      // The signature decides, not the name: decodePngFile refuses anything else before decoding.
      const decoded = decodePngFile(new Uint8Array(await file.arrayBuffer()));
      setImage({ ...decoded, file: file.name });
    } catch (error) {
      setImage(null);
      toast.error(error instanceof TextureImageError ? error.message : t.onlyPng);
    } finally {
      if (picker.current) picker.current.value = '';
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  };

  const submit = async () => {
    if (!image || !name.trim()) return toast.error(t.fillAll);
    const itemRarity = textureRarity(rarity);
    if (!itemRarity.ok) return toast.error(itemRarity.error);
    const cellError = textureCellError(options, image);
    if (cellError) return toast.error(cellError);
    setBuilding(true);
    try {
      const rttexBase64 = await buildRttexBase64(image);
      create.mutate(
        { itemName: name.trim(), rarity: itemRarity.rarity, rttexBase64, properties: textureProperties(options) },
        {
          onSuccess: () => {
            setImage(null);
            setName('');
          },
        },
      );
    } catch (error) {
      toast.error(`${t.errorPrefix}${(error as Error).message || t.createFailed}`);
    } finally {
      setBuilding(false);
    }
  };

  return (
    <Card heading="Custom Textures">
      <div className="flex flex-col gap-5">
        <div className="flex flex-col items-stretch gap-4 sm:flex-row">
          <button
            type="button"
            data-testid="custom-texture-drop"
            onClick={() => picker.current?.click()}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`flex min-h-36 flex-1 flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed p-4 text-center text-sm transition-colors ${
              dragging ? 'border-accent bg-accent/10 text-ink' : 'border-line text-ink-muted hover:border-accent'
            }`}
          >
            <span className="font-medium text-ink">Drop a PNG here or click to choose one</span>
            <span>{image ? `${image.file} (${image.width}x${image.height})` : 'PNG only, up to 1024x1024 pixels'}</span>
          </button>
          <input
            ref={picker}
            type="file"
            accept="image/png,.png"
            className="hidden"
            data-testid="custom-texture-file"
            onChange={(e) => void choose(e.target.files?.[0])}
          />
          <div className="flex flex-col items-center justify-center gap-1">
            {image ? (
              <Preview image={image} />
            ) : (
              <div className="flex size-32 items-center justify-center rounded border border-line border-dashed text-ink-muted text-xs">
                Preview
              </div>
            )}
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Input
            label="Item Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="custom-texture-name"
          />
          <Input
            label="Item Rarity"
            hint="1 to 999"
            inputMode="numeric"
            value={rarity}
            onChange={(e) => setRarity(e.target.value)}
            data-testid="custom-texture-rarity"
          />
        </div>
        <CustomTextureAdvanced options={options} onChange={setOptions} />
        <div className="flex flex-col gap-2 border-line border-t pt-4 sm:flex-row sm:justify-end">
          <ApplyNote />
          <Button
            onClick={submit}
            loading={building || create.isPending}
            data-testid="custom-texture-create"
            className="w-full sm:w-auto"
          >
            Create Item &amp; Restart Server
          </Button>
        </div>
      </div>
    </Card>
  );
}
