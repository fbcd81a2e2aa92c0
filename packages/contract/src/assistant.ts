// Filled by the issue-10 work on this feature.
export {};
