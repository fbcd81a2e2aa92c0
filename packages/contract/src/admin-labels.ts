/**
 * Texts the admin panel repeats across its tabs, written once here: the per-tab label objects
 * (adminBanLabels, adminUserLabels, ...) point at these rather than spelling them again.
 */
export const adminCommonLabels = {
  panelTitle: 'Admin Panel',
  /** The phone's button that slides the tab list in and out. */
  sections: 'Sections',
  closeSections: 'Close sections',
  /** The tab list's accessible name. */
  sectionsNav: 'Admin sections',
  cancel: 'Cancel',
  /** A missing value in a table cell (no GrowID, no server). */
  none: '—',
  /** A ban or server time without end (admin document, section 4: an empty or null expiry). */
  permanent: 'Permanent',
  /** Column headings of a ranked table: the rank, and the share in percent. */
  rank: '#',
  percent: '%',
} as const;

/** The Paid plan's end as the profile shows it (set by an admin with Set Paid). */
export const paidPlanLabels = {
  until: (date: string) => `until ${date}`,
  noEndDate: 'no end date',
} as const;
