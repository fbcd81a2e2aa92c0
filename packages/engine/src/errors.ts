/** A refusal with an HTTP status and a precise message; control routes answer it as `{error}`. */
export class EngineError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const badRequest = (message: string) => new EngineError(400, message);
export const notFound = (message: string) => new EngineError(404, message);
export const conflict = (message: string) => new EngineError(409, message);
