// First: it configures zod before any schema below is created.
import './zod-config.ts';

export * from './auth.ts';
export * from './backup.ts';
export * from './configuration.ts';
export * from './console-command.ts';
export * from './constants.ts';
export * from './custom-items.ts';
export * from './engine-config.ts';
export * from './engine-control.ts';
export * from './hosting.ts';
export * from './idempotency.ts';
export * from './issues.ts';
export * from './items.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './player.ts';
export * from './routes.ts';
export * from './server.ts';
export * from './server-pages.ts';
export * from './settings.ts';
export * from './socket.ts';
export * from './user.ts';
export * from './world.ts';
