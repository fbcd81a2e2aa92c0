import { z } from 'zod';

// The panel's Content-Security-Policy has no 'unsafe-eval': zod must neither compile parsers with
// new Function nor probe whether it may (each probe is a CSP violation in the browser). zod decides
// when a schema is created, so index.ts imports this module before any schema. The api and the engine
// run the same way; the one large body (a world's tiles) has its own fast path (fast-array.ts).
z.config({ jitless: true });
