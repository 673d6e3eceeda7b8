import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import { AppError, type FieldError } from './errors';
import { INPUT_UNKNOWN, issueText } from './issue-text';

/** RFC 9457 problem document plus the members existing client SDKs read (`message`, `error_code`, `code`). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  message: string;
  error_code: string;
  code: string;
  errors?: FieldError[];
  error_id?: string;
  [extra: string]: unknown;
}

/** Written out here (not imported from parse.ts) to keep problem.ts free of a cycle. */
const MAX_JSON_DEPTH_TEXT = 64;

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Base of every problem `type`: by default a reference relative to the gateway (RFC 9457 allows one), whose
 * /api/v1/problems/<code> pages describe each type; PROBLEM_TYPE_BASE (e.g. https://api.example.com/api/v1/problems/)
 * makes it absolute.
 */
export const PROBLEM_TYPE_BASE = process.env.PROBLEM_TYPE_BASE || '/api/v1/problems/';

export function problem(status: number, code: string, detail: string, more: Partial<Problem> = {}): Problem {
  return {
    type: `${PROBLEM_TYPE_BASE}${code.toLowerCase().replace(/_/g, '-')}`,
    title: titles[status] ?? 'Error',
    status,
    detail,
    message: detail,
    error_code: code,
    code,
    ...more,
  };
}

/**
 * Most field errors one answer lists: a body with 50,000 unknown keys answered a problem document of megabytes.
 * The first MAX_LISTED_ERRORS are listed, `errors_total` counts them all.
 */
export const MAX_LISTED_ERRORS = 20;

/** The errors an answer lists (the first MAX_LISTED_ERRORS) and, when some were left out, how many there were. */
export function listedErrors(errors: FieldError[]): { errors: FieldError[]; errors_total?: number } {
  return errors.length > MAX_LISTED_ERRORS ? { errors: errors.slice(0, MAX_LISTED_ERRORS), errors_total: errors.length } : { errors };
}

/** `items` joined for a detail text, at most MAX_LISTED_ERRORS of them ("…, and 49,980 more"). */
export function listedText(items: string[], separator: string): string {
  if (items.length <= MAX_LISTED_ERRORS) return items.join(separator);
  return `${items.slice(0, MAX_LISTED_ERRORS).join(separator)}${separator}and ${items.length - MAX_LISTED_ERRORS} more`;
}

/**
 * The field errors of a ZodError: the path and a text that says what is expected (issue-text.ts). `input` is what
 * was parsed: with it, an absent field reads "required" (also a coerced one, which zod sees as NaN) and a wrong
 * value is named with what was probably meant (`suggestion`).
 */
export function zodFieldErrors(err: ZodError, input: unknown = INPUT_UNKNOWN): FieldError[] {
  return err.issues.map((issue) => {
    const { message, suggestion } = issueText(issue, input);
    return { path: issue.path.join('.') || '(body)', message, ...(suggestion !== undefined ? { suggestion } : {}) };
  });
}

/** A ZodError of a parsed body as the 400 VALIDATION_ERROR it answers (the same as toProblem makes of it, with the input's texts). */
export function validationError(err: ZodError, input: unknown): AppError {
  const errors = zodFieldErrors(err, input);
  return new AppError(
    'invalid_data',
    `invalid request: ${listedText(
      errors.map((e) => `${e.path}: ${e.message}`),
      '; ',
    )}`,
    { code: 'VALIDATION_ERROR', errors },
  );
}

/** Maps anything thrown to a problem; unknown errors become a 500 with a fresh error id and no internals. */
export function toProblem(err: unknown): { problem: Problem; unexpected: boolean } {
  if (err instanceof AppError) {
    return {
      problem: problem(err.status, err.code, err.message, {
        ...(err.options.errors ? listedErrors(err.options.errors) : {}),
        ...(err.options.extra ?? {}),
      }),
      unexpected: false,
    };
  }
  if (err instanceof ZodError) {
    const errors = zodFieldErrors(err);
    const detail = `invalid request: ${listedText(
      errors.map((e) => `${e.path}: ${e.message}`),
      '; ',
    )}`;
    return { problem: problem(400, 'VALIDATION_ERROR', detail, listedErrors(errors)), unexpected: false };
  }
  const dependency = asDependencyError(err);
  if (dependency) return { problem: dependency, unexpected: true };
  const bodyParserError = asBodyParserError(err);
  if (bodyParserError) return { problem: bodyParserError, unexpected: false };
  const errorId = randomUUID();
  return {
    problem: problem(500, 'INTERNAL_ERROR', `unexpected error; quote error_id ${errorId} when reporting it`, {
      error_id: errorId,
    }),
    unexpected: true,
  };
}

/**
 * Another service did not answer (bus RPC timeout) or failed answering: the client may retry, so 503 with
 * a generic text; still logged as unexpected so operators see it. Matched by name to keep this lib free
 * of the bus.
 */
function asDependencyError(err: unknown): Problem | undefined {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'RpcTimeoutError' || name === 'RpcRemoteError') {
    const errorId = randomUUID();
    return problem(
      503,
      'SERVICE_UNAVAILABLE',
      `a service this request depends on is temporarily unavailable; retry later (error_id ${errorId})`,
      { error_id: errorId },
    );
  }
  return undefined;
}

/** express.json() errors carry `type` and `status`; they are the client's fault, not ours. */
function asBodyParserError(err: unknown): Problem | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { type?: unknown; status?: unknown; limit?: unknown };
  switch (e.type) {
    case 'entity.parse.failed':
      return problem(400, 'MALFORMED_JSON', 'request body is not valid JSON');
    case 'entity.too.large':
      return problem(413, 'PAYLOAD_TOO_LARGE', `request body exceeds the limit of ${String(e.limit)} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'request body encoding or charset is not supported');
    case 'entity.too.deep':
      return problem(400, 'NESTING_TOO_DEEP', `request body is nested deeper than ${MAX_JSON_DEPTH_TEXT} levels`);
    case 'request.aborted':
      return problem(400, 'REQUEST_ABORTED', 'request was aborted by the client');
    default:
      break;
  }
  // express 5's router: a path parameter that is not valid percent-encoding ("/invoice/%C0%AF").
  if (err instanceof URIError || (e.status === 400 && /decode param/i.test(String((err as { message?: unknown }).message)))) {
    return problem(400, 'MALFORMED_PATH', 'the request path is not valid percent-encoding');
  }
  return undefined;
}
