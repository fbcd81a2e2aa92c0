// Filled in by issue 9 (see the feature's routes and pages).
export {};
