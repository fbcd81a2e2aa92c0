import { dataRoutes } from './routes-data.ts';
import { filesRoutes } from './routes-files.ts';
import { gameRoutes } from './routes-game.ts';
import { systemRoutes } from './routes-system.ts';
import type { Route } from './server.ts';

/** Every route of the control API. */
export const routes: Route[] = [...systemRoutes, ...dataRoutes, ...gameRoutes, ...filesRoutes];
