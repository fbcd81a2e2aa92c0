import type { IncomingMessage } from 'node:http';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const API_TARGET = 'http://localhost:8080';

// Paths the api answers. Some are also client routes (/admin, /items), so a browser navigation
// (Accept: text/html) gets the SPA's index.html and only fetch/XHR/WebSocket calls are proxied.
const API_PATHS = [
  '/auth',
  '/register',
  '/users',
  '/status',
  '/admin',
  '/ws',
  '/dev-discord',
  '/cache',
  '/items',
  '/ip',
  '/shop',
  '/feedback',
  '/ai',
  '/all-items',
];

function keepPageNavigations(req: IncomingMessage): string | undefined {
  return req.headers.accept?.includes('text/html') ? '/index.html' : undefined;
}

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  API_PATHS.map((path) => [
    path,
    // The development sign-in pages are the api's own HTML, so they are always proxied.
    { target: API_TARGET, ws: path === '/ws', bypass: path === '/dev-discord' ? undefined : keepPageNavigations },
  ]),
);

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  // One bundle (~520 kB, 160 kB gzipped) for now; split per route once the pages grow.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: { port: 5173, strictPort: true, proxy },
});
