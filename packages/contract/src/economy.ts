/** Texts shared by everything that gives an account server time, slots, storage or credit. */
export const economyMessages = {
  serverTimePermanent: 'Your server time is permanent: server time cannot be added to it.',
} as const;
