// Filled by the issue-11 work on this part of the admin panel.
export {};
