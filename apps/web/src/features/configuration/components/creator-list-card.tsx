import { configurationMessages as c } from '@canopy/contract';
import { type FormEvent, useState } from 'react';
import { Button, Card, Input, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useAddCreator, useCreatorList, useRemoveCreator } from '../api/creator-list.ts';

/** Creator List: add a GrowID (trimmed, non-empty) or remove one; the list scrolls past 240 px. */
export function CreatorListCard({ userId }: { userId: string }) {
  const list = useCreatorList(userId);
  useErrorToast(list.error);
  const add = useAddCreator(userId);
  const remove = useRemoveCreator(userId);
  const [growId, setGrowId] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = growId.trim();
    if (!trimmed) return setError(c.growIdRequired);
    setError(undefined);
    add.mutate(trimmed, { onSuccess: () => setGrowId('') });
  }

  return (
    <Card heading="Creator List" data-testid="creator-list-card">
      <p className="mb-4 text-ink-muted text-sm">Players on this list get creator rights on your server.</p>
      <form onSubmit={submit} className="mb-4 flex items-end gap-2">
        <Input
          label="GrowID"
          placeholder="Enter a GrowID"
          className="flex-1"
          value={growId}
          error={error}
          onChange={(event) => setGrowId(event.target.value)}
        />
        <Button type="submit" loading={add.isPending} disabled={!growId.trim()}>
          Add
        </Button>
      </form>
      {list.isPending ? (
        <SkeletonRows rows={3} />
      ) : list.isError ? (
        <p className="text-red-400 text-sm">{list.error.message}</p>
      ) : list.data.length === 0 ? (
        <p className="text-ink-muted text-sm">No creators yet.</p>
      ) : (
        <ul
          aria-label="Creators"
          className="max-h-[240px] divide-y divide-line overflow-y-auto rounded-md border border-line"
        >
          {list.data.map((name) => (
            <li key={name} className="flex items-center justify-between gap-3 px-3 py-2">
              <span className="truncate font-mono text-ink text-sm">{name}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${name}`}
                disabled={remove.isPending && remove.variables === name}
                onClick={() => remove.mutate(name)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
