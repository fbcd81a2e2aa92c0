import {
  defaultSettings,
  type Profile,
  type ProfileResponse,
  profileResponseSchema,
  type Settings,
} from '@canopy/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from './api-client.ts';
import { useSession } from './session.ts';

/** The registration check's answer (spec 2.2 / section 4): the 404 and maintenance answers are states, not errors. */
export type ProfileCheck =
  | { kind: 'registered'; profile: Profile; settings: Settings }
  | { kind: 'unregistered'; settings: Settings }
  | { kind: 'maintenance'; settings: Settings };

/** Indonesian texts of a failed registration check (spec section 8). */
export const registrationCheckMessages = {
  failed: 'Gagal memverifikasi pendaftaran: server membalas dengan kesalahan. Silakan coba lagi nanti.',
  unavailable: 'Layanan tidak tersedia. Periksa koneksi internet Anda.',
} as const;

/** A registration check that failed for another reason than 404 or maintenance. */
export class RegistrationCheckError extends Error {
  /** The HTTP status shown as the error page's code (503 for a network failure). */
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'RegistrationCheckError';
    this.code = code;
  }
}

/** Settings while the api reports maintenance: creation and actions are off too (spec section 4). */
const maintenanceSettings: Settings = {
  ...defaultSettings,
  maintenance: true,
  disableServerCreation: true,
  disableServerActions: true,
};

const isMaintenanceError = (e: ApiError) =>
  e.status === 503 && (e.code === 'maintenance' || /maintenance/i.test(e.message));

/** Classifies a profile answer; exported for tests. */
export function classifyProfile(response: ProfileResponse): ProfileCheck {
  const { profile, settings } = response;
  return profile.growId ? { kind: 'registered', profile, settings } : { kind: 'unregistered', settings };
}

/** Maps a failed profile call to a state or a RegistrationCheckError; exported for tests. */
export function classifyProfileError(error: unknown): ProfileCheck {
  if (!(error instanceof ApiError)) throw error;
  if (error.status === 404) return { kind: 'unregistered', settings: defaultSettings };
  if (isMaintenanceError(error)) return { kind: 'maintenance', settings: maintenanceSettings };
  if (error.status === 0) throw new RegistrationCheckError(503, registrationCheckMessages.unavailable);
  throw new RegistrationCheckError(error.status, registrationCheckMessages.failed);
}

/** Query key of a user's profile. */
export const profileQueryKey = (userId: string) => ['profile', userId] as const;

/** GET /users/{id}/profile as a query. */
export function profileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: profileQueryKey(userId),
    queryFn: async ({ signal }): Promise<ProfileCheck> => {
      try {
        const response = await api.get(`/users/${encodeURIComponent(userId)}/profile`, {
          schema: profileResponseSchema,
          signal,
        });
        return classifyProfile(response);
      } catch (error) {
        return classifyProfileError(error);
      }
    },
  });
}

/** The signed-in user's registration check (disabled while signed out). */
export function useProfileCheck() {
  const { user } = useSession();
  return useQuery({ ...profileQueryOptions(user?.id ?? ''), enabled: !!user });
}

/** The registered profile and settings; only for pages inside the guarded layout, which ensures both. */
export function useRegisteredProfile(): { profile: Profile; settings: Settings } {
  const { data } = useProfileCheck();
  if (data?.kind !== 'registered') throw new Error('useRegisteredProfile used outside the guarded layout');
  return { profile: data.profile, settings: data.settings };
}
