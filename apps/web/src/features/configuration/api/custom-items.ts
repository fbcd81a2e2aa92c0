import {
  type CustomItem,
  type CustomItemCreate,
  configurationMessages as c,
  customItemCreatedSchema,
  itemConfigSchema,
  messageResponseSchema,
  customItemsMessages as t,
} from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { allItemsQueryKey } from '../../../lib/all-items-query.ts';
import { api } from '../../../lib/api-client.ts';
import { hasServer } from '../../../lib/owned-server.ts';
import { useServerAction } from '../../dashboard/api/server-action.ts';
import { configServerPath, configurationKey } from './keys.ts';

/** Query key of the server's custom items. */
export const customItemsKey = (userId: string) => [...configurationKey(userId), 'custom-items'] as const;
const itemConfigPath = (userId: string) => `${configServerPath(userId)}/item-config`;

/** GET /users/{id}/server/item-config as a query. */
export function customItemsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: customItemsKey(userId),
    queryFn: ({ signal }) =>
      api.get(itemConfigPath(userId), { schema: itemConfigSchema, signal, defaultError: () => t.fetchFailed }),
  });
}

/** The server's custom items. */
export function useCustomItems(userId: string) {
  return useQuery(customItemsQueryOptions(userId));
}

/** After a change: the custom items and the item database (which lists them) are fetched again. */
function useRefetchItems(userId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: customItemsKey(userId) }),
      queryClient.invalidateQueries({ queryKey: allItemsQueryKey }),
    ]);
}

/** Restarts the server with the dashboard's shared call, or says there is none. */
function useRestart(userId: string, serverOwned: string) {
  const toast = useToast();
  const restart = useServerAction(userId);
  return () => {
    if (!hasServer(serverOwned)) toast.error(c.noServerToRestart);
    else restart.run(serverOwned, 'restart');
  };
}

/** 'Save Changes & Restart Server': PUT the whole list, then restart (the engine rebuilds items.dat at start). */
export function useSaveCustomItems(userId: string, serverOwned: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refetch = useRefetchItems(userId);
  const restart = useRestart(userId, serverOwned);
  return useMutation({
    mutationFn: (items: CustomItem[]) =>
      api.request(itemConfigPath(userId), {
        method: 'PUT',
        body: { items },
        schema: messageResponseSchema,
        defaultError: () => t.saveFailed,
      }),
    onSuccess: (_answer, items) => {
      // The restart unmounts the tab before onSettled's refetch: it comes back with the saved list, not a
      // flash of the list from before the save.
      queryClient.setQueryData(customItemsKey(userId), { items });
      toast.success(t.updated);
      restart();
    },
    onError: (error) => toast.error(error.message),
    onSettled: refetch,
  });
}

/** 'Create Item & Restart Server': POST the texture item, then restart. */
export function useCreateCustomItem(userId: string, serverOwned: string) {
  const toast = useToast();
  const refetch = useRefetchItems(userId);
  const restart = useRestart(userId, serverOwned);
  return useMutation({
    mutationFn: (body: CustomItemCreate) =>
      api.post(`${configServerPath(userId)}/custom-item`, body, {
        schema: customItemCreatedSchema,
        defaultError: () => t.createFailed,
      }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      restart();
    },
    onError: (error) => toast.error(`${t.errorPrefix}${error.message}`),
    onSettled: refetch,
  });
}
