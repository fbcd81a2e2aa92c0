import {
  type CustomItem,
  type CustomItemCreate,
  configAppliedMessage,
  customItemCreatedSchema,
  itemConfigResponseSchema,
  customItemsMessages as t,
  versionedConfigSaveResponseSchema,
} from '@canopy/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { allItemsQueryKey } from '../../../lib/all-items-query.ts';
import { api } from '../../../lib/api-client.ts';
import { configServerPath, configurationKey } from './keys.ts';

/** Query key of the server's custom items. */
export const customItemsKey = (userId: string) => [...configurationKey(userId), 'custom-items'] as const;
const itemConfigPath = (userId: string) => `${configServerPath(userId)}/item-config`;

/** GET /users/{id}/server/item-config as a query: the items and the version of their file (ADR 0035). */
export function customItemsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: customItemsKey(userId),
    queryFn: ({ signal }) =>
      api.get(itemConfigPath(userId), { schema: itemConfigResponseSchema, signal, defaultError: () => t.fetchFailed }),
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

/**
 * 'Save Changes & Restart Server': PUT the whole list; the api restarts a running server as part of the save
 * (the engine rebuilds items.dat at start) and leaves a stopped one stopped; the answer says which.
 */
export function useSaveCustomItems(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refetch = useRefetchItems(userId);
  return useMutation({
    // Conditional on the version the list was read at: items saved (or created from a texture) since are a 409.
    mutationFn: ({ items, version }: { items: CustomItem[]; version: string }) =>
      api.request(itemConfigPath(userId), {
        method: 'PUT',
        body: { items },
        ifMatch: version,
        schema: versionedConfigSaveResponseSchema,
        defaultError: () => t.saveFailed,
      }),
    onSuccess: (answer, { items }) => {
      // The restart unmounts the tab before onSettled's refetch: it comes back with the saved list, not a
      // flash of the list from before the save.
      queryClient.setQueryData(customItemsKey(userId), { items, version: answer.version });
      toast.success(t.updated);
      toast.info(configAppliedMessage(answer.applied));
    },
    onError: (error) => toast.error(error.message),
    onSettled: refetch,
  });
}

/** 'Create Item & Restart Server': POST the texture item; the api applies it as a save does (above). */
export function useCreateCustomItem(userId: string) {
  const toast = useToast();
  const refetch = useRefetchItems(userId);
  return useMutation({
    mutationFn: (body: CustomItemCreate) =>
      api.post(`${configServerPath(userId)}/custom-item`, body, {
        schema: customItemCreatedSchema,
        defaultError: () => t.createFailed,
      }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      toast.info(configAppliedMessage(answer.applied));
    },
    onError: (error) => toast.error(`${t.errorPrefix}${error.message}`),
    onSettled: refetch,
  });
}
