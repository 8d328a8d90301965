/**
 * The one error type of the service. Services throw it with a code; the REST layer turns the
 * code into an HTTP status (STATUS_BY_CODE) and the message into `{success:false, error}`.
 * Anything else that escapes a service is an unexpected failure: 500 with the endpoint's own
 * "Failed to ..." message, and the details only in the log.
 */
export const STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof STATUS_BY_CODE;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After for RATE_LIMITED. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = STATUS_BY_CODE[code];
  }
}

export const badRequest = (message: string) => new AppError("BAD_REQUEST", message);
export const notFound = (message: string) => new AppError("NOT_FOUND", message);
export const conflict = (message: string) => new AppError("CONFLICT", message);
export const unprocessable = (message: string) => new AppError("UNPROCESSABLE", message);
export const unauthenticated = (message: string) => new AppError("UNAUTHENTICATED", message);
