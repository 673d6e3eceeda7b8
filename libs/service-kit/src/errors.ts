/**
 * The one error type domain code throws. The HTTP layer maps `kind` to a status and renders
 * application/problem+json (RFC 9457) with the members existing clients read.
 */
export type ErrorKind =
  | 'invalid_data' // 400
  | 'unauthenticated' // 401
  | 'limit_reached' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'payload_too_large' // 413
  | 'unsupported_media_type' // 415
  | 'unprocessable' // 422
  | 'rate_limited' // 429
  | 'unavailable'; // 503

export const statusOfKind: Record<ErrorKind, number> = {
  invalid_data: 400,
  unauthenticated: 401,
  limit_reached: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

export interface FieldError {
  path: string;
  message: string;
  /** Which part of the request the field is in: path parameter, query parameter or body (default). */
  in?: 'path' | 'query' | 'body';
  /** The value the client most likely meant, where the mistake is a common one (`HUR` for "Stunde", 0.19 for 19). */
  suggestion?: string | number;
}

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly options: {
      /** Stable machine-readable code (`error_code` and `code`); defaults to the upper-cased kind. */
      code?: string;
      errors?: FieldError[];
      /** Extra top-level members of the problem body (e.g. 402 usage). */
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return statusOfKind[this.kind];
  }

  get code(): string {
    return this.options.code ?? this.kind.toUpperCase();
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`, { code: 'NOT_FOUND' });
export const invalidData = (message: string, errors?: FieldError[]) =>
  new AppError('invalid_data', message, { code: 'VALIDATION_ERROR', errors });
export const conflict = (message: string, code = 'CONFLICT') => new AppError('conflict', message, { code });
export const unauthenticated = (message = 'missing, invalid or revoked API key') =>
  new AppError('unauthenticated', message, { code: 'UNAUTHENTICATED' });
