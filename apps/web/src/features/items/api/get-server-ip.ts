import { itemMessages } from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client.ts';
import { readServerIp } from '../item-filters.ts';

/** GET /ip: the game address; a wrong shape fails with 'Invalid IP data format.', any other failure with the api's text. */
export function serverIpQueryOptions() {
  return queryOptions({
    queryKey: ['server-ip'],
    queryFn: async ({ signal }) => {
      const body = await api.get('/ip', { signal, defaultError: () => itemMessages.ipFetchFailed }).catch((error) => {
        throw error instanceof ApiError && error.code === 'network' ? new Error(itemMessages.ipFetchFailed) : error;
      });
      const read = readServerIp(body);
      if ('error' in read) throw new Error(read.error);
      return read.ip;
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The server IP players connect to. */
export function useServerIp() {
  return useQuery(serverIpQueryOptions());
}
