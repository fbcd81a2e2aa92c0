/** A sentence with a link to a page in it: the text before the link, the link's label, the text after it. */
export interface LinkedSentence {
  before: string;
  link: string;
  after: string;
}

/**
 * Texts of the dashboard's deletion notice and Server Time card for an account without a server (issue 21
 * item 13): what the user can do next, which depends on their server time and on what is open to them.
 */
export const dashboardTexts = {
  deletedGone: 'Its worlds and players are gone.',
  deletedCreate: 'You can create a new server below.',
  deletedRenew: {
    before: 'To create a new server, first renew your server time on the',
    link: 'Renew & Shop',
    after: 'page.',
  },
  deletedRedeem: {
    before:
      'To create a new server, first add server time: the shop is disabled by an administrator, but a server time code adds it on the',
    link: 'Redeem Code',
    after: 'page.',
  },
  noTimeRenew: 'No server time left. Renew it or redeem a code to create a server.',
  noTimeRedeem: 'No server time left. Redeem a server time code to create a server.',
  noTime: 'No server time left.',
  /** Create Server's reason once the time ran out while the shop is disabled for the user (else the api's own). */
  createNeedsCode: 'Your server time has run out. Redeem a server time code to create a server.',
} as const satisfies Record<string, string | LinkedSentence>;
