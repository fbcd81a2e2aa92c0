import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/index.ts';
import { type AdminMutationOptions, adminMutationOptions } from './admin-mutation-options.ts';

export { type AdminMutationOptions, reloadAfterAdminWrite } from './admin-mutation-options.ts';

/** An admin write with the panel's toasts and list reloads (admin-mutation-options.ts). */
export function useAdminMutation<TVars, TAnswer>(options: AdminMutationOptions<TVars, TAnswer>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation(adminMutationOptions(options, queryClient, toast));
}
