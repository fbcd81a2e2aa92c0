import { messages } from '@canopy/contract';

/** A refusal with a stable code, an HTTP status and the text the user sees. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const badRequest = (message: string, code = 'validation') => new AppError(400, code, message);
export const unauthorized = (message: string = messages.notAuthenticated, code = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message: string = messages.missingPermission, code = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message: string = messages.notFound, code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const maintenance = () => new AppError(503, 'maintenance', messages.maintenance);
/** The database cannot be reached or timed out (db.ts isDatabaseUnavailable): a passing outage, not a bug. */
export const unavailable = () => new AppError(503, 'unavailable', messages.unavailable);
