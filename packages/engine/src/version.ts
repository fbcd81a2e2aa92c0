import pkg from '../package.json' with { type: 'json' };

/** The engine's version, from its package.json. */
export const ENGINE_VERSION: string = pkg.version;
