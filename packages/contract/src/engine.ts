// The part of the contract an engine process loads (package entry `@canopy/contract/engine`). Each engine is
// its own process, so everything it imports is paid once per hosted server: the full index (every api and
// page schema) cost each idle engine about 1.5 MB of heap for schemas it never uses.
// First: it configures zod before any schema below is created.
import './zod-config.ts';

export * from './console-command.ts';
export * from './engine-config.ts';
export * from './engine-control.ts';
export * from './issues.ts';
export * from './messages.ts';
export * from './player.ts';
export * from './user.ts';
export * from './world.ts';
