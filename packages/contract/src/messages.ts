/** User-facing texts of the spec, kept in one place so web and api say the same thing. */
export const messages = {
  growIdInvalid: 'GrowID must be 3-20 alphanumeric characters.',
  growIdTaken: 'This GrowID is already taken.',
  alreadyRegistered: 'You have already registered a GrowID. It cannot be changed.',
  registerForOther: 'You can only register a GrowID for your own account.',
  serverNameRequired: 'Server name is required.',
  serverNameLength: 'Name must be between 3 and 20 characters.',
  serverNameChars: 'Name can only contain letters, numbers, underscores, and hyphens.',
  notAuthenticated: 'User not authenticated.',
  sessionExpired: 'Session expired. Please log in again.',
  invalidToken: 'Invalid session token.',
  invalidRefreshToken: 'Invalid or expired refresh token.',
  refreshReused: 'Refresh token was already used; all sessions of this sign-in were revoked.',
  discordTokenInvalid: 'Discord rejected the access token. Please log in again.',
  discordUnavailable: 'Could not reach Discord to verify the sign-in. Please try again later.',
  notRegistered: 'User is not registered.',
  forbiddenProfile: 'You can only view your own profile.',
  maintenance: 'The panel is under maintenance. Please try again later.',
  // The api's database cannot be reached or did not answer in time (code 'unavailable'): unlike maintenance, a
  // passing outage, so the text asks for another try rather than naming a state.
  unavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  adminOnly: 'You do not have permission to view this page.',
  missingPermission: 'You do not have permission to perform this action.',
  notFound: 'Not found.',
  bannedPage: 'Your account is banned and cannot access this page.',
  featureDisabled: 'This feature is currently disabled by an administrator.',
  loginFailedInvalidResponse: (status: number) =>
    `Login failed. The server returned an invalid response (status: ${status}). Please try again later.`,
  loginFailed: (statusText: string) => `Login failed: ${statusText}`,
  registrationFailed: (statusText: string) => `Registration failed: ${statusText}`,
  keySetupFailed: 'Could not establish a secure session key.',
  // Login CSRF (issue 21): a return carrying another browser's token, or a state this tab never sent.
  loginStateMismatch:
    'This sign-in was not started from this browser tab, so it was refused. Click Login with Discord to sign in.',
  insecureConnection:
    'This panel is served over plain HTTP: the connection is not encrypted, so your sign-in can be read on the way. The operator should configure HTTPS (CANOPY_TLS_CERT and CANOPY_TLS_KEY).',
  settingsSaved: 'Settings saved!',
} as const;
