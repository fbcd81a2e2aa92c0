export * from './auth.ts';
export * from './constants.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './routes.ts';
export * from './server.ts';
export * from './settings.ts';
export * from './user.ts';
