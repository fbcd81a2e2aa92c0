import { NEWBIE_KIT_PAGE_SIZE, type NewbieKitResponse } from '@canopy/contract';
import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Input, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useAllItems } from '../../../lib/all-items-query.ts';
import { useNewbieKit, useSaveNewbieKit } from '../api/newbie-kit.ts';
import { addKitItem, kitEntry, parseCurrency, removeKitItem } from '../newbie-kit-draft.ts';
import { ApplyNote } from './apply-note.tsx';
import { KitItemSearch } from './kit-item-search.tsx';
import { KitItemsList } from './kit-items-list.tsx';
import { ReloadLatest } from './reload-latest.tsx';

interface Draft {
  gems: string;
  coins: string;
  items: [number, number][];
  /** The version of the kit the draft started from: the save names it (a kit saved since is a 409). */
  version: string;
}

const draftOf = (kit: NewbieKitResponse): Draft => {
  const entry = kitEntry(kit);
  return { gems: String(entry.Gemss), coins: String(entry.Coin), items: entry.items, version: kit.version };
};

/** Newbie Kit: starting currency, items to add from the item database, the kit's items, save and restart. */
export function NewbieKitTab({ userId }: { userId: string }) {
  const kit = useNewbieKit(userId);
  const allItems = useAllItems();
  useErrorToast(kit.error);
  useErrorToast(allItems.error);
  const save = useSaveNewbieKit(userId);
  const [draft, setDraft] = useState<Draft | null>(null);

  // The draft starts from the stored kit, once; a refetch after saving does not undo typing. It waits for a
  // fetch in flight: a cached kit may be older than the stored one (the tab remounts after a save's restart).
  const fetching = kit.isFetching;
  useEffect(() => {
    if (kit.data && !fetching && draft === null) setDraft(draftOf(kit.data));
  }, [kit.data, fetching, draft]);

  const names = useMemo(
    () => new Map((allItems.data ?? []).map((item) => [item.item_id, item.name] as const)),
    [allItems.data],
  );

  if (kit.isError)
    return (
      <Card>
        <p className="text-red-400 text-sm">{kit.error.message}</p>
      </Card>
    );
  if (!draft) return <SkeletonRows rows={4} />;

  const update = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  function submit() {
    if (!draft) return;
    const entry = kitEntry(kit.data);
    const kitToSave = {
      ITEMS: [
        {
          Gemss: parseCurrency(draft.gems),
          Coin: parseCurrency(draft.coins),
          Seasonals_Token: entry.Seasonals_Token,
          items: draft.items,
        },
      ],
    };
    // The draft goes on from the version just saved (its next save is not a conflict with itself).
    save.mutate(
      { kit: kitToSave, version: draft.version },
      { onSuccess: (answer) => setDraft((d) => d && { ...d, version: answer.version }) },
    );
  }
  /** After a 409 (confirmed): the draft starts over from the kit as it is now. */
  function reload() {
    save.reset();
    setDraft(null);
    void kit.refetch();
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <Card heading="Starting Currency" data-testid="kit-currency-card">
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label="Gems"
              inputMode="numeric"
              value={draft.gems}
              onChange={(event) => update({ gems: event.target.value })}
            />
            <Input
              label="Coins"
              inputMode="numeric"
              value={draft.coins}
              onChange={(event) => update({ coins: event.target.value })}
            />
          </div>
        </Card>
        <Card heading="Add Items" data-testid="kit-add-card">
          <KitItemSearch
            items={allItems.data ?? []}
            loading={allItems.isPending}
            onAdd={(id, qty) => update({ items: addKitItem(draft.items, id, qty) })}
          />
        </Card>
      </div>
      <Card heading="Current Kit Items" data-testid="kit-items-card">
        <KitItemsList
          items={draft.items}
          names={names}
          pageSize={NEWBIE_KIT_PAGE_SIZE}
          onRemove={(id) => update({ items: removeKitItem(draft.items, id) })}
        />
      </Card>
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
        <ReloadLatest error={save.error} onReload={reload} testId="kit-reload" />
        <ApplyNote />
        <Button onClick={submit} loading={save.isPending} className="w-full sm:w-auto">
          Save Changes &amp; Restart Server
        </Button>
      </div>
    </div>
  );
}
