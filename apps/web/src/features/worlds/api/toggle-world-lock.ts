import { WORLD_LOCKED, WORLD_OPEN, type WorldListResponse } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { withWorldLocked } from '../world-list.ts';
import { fetchWorld } from './get-world.ts';
import { worldsKey } from './keys.ts';
import { putWorld } from './save-world.ts';

interface LockRequest {
  name: string;
  locked: boolean;
}

/** Locks or opens a world (spec section 4): fetch it, set d_weather to 6 or 0, save the whole world. */
export async function setWorldLock(userId: string, { name, locked }: LockRequest) {
  const world = await fetchWorld(userId, name);
  return putWorld(userId, name, { ...world, d_weather: locked ? WORLD_LOCKED : WORLD_OPEN });
}

/** The lock toggle: the table shows the new state at once and reverts when the api refuses. */
export function useToggleWorldLock(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const key = worldsKey(userId);
  const setLocked = (name: string, locked: boolean) =>
    queryClient.setQueryData<WorldListResponse>(key, (list) =>
      list ? { ...list, worlds: withWorldLocked(list.worlds, name, locked) } : list,
    );
  return useMutation({
    mutationFn: (request: LockRequest) => setWorldLock(userId, request),
    onMutate: async ({ name, locked }) => {
      // A list fetch under way would land after the optimistic write and undo it.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      setLocked(name, locked);
    },
    onError: (error, { name, locked }) => {
      // Only this world goes back: another toggle may be under way on another row.
      setLocked(name, !locked);
      toast.error(error.message);
    },
    onSuccess: (answer) => toast.success(answer.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
