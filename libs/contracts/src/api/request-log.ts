import { z } from 'zod';

const Timestamp = z.string().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-11-21T10:15:00.000Z' });

/** Methods a request of the log can have. */
export const REQUEST_LOG_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** GET /request-log/: filters and the cursor (newest first). */
export const RequestLogQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'page size, at most 100' }),
    cursor: z
      .string()
      .regex(/^\d{1,15}-\d{1,10}$/)
      .optional()
      .meta({ description: 'next_cursor of the previous page (older entries)', example: '1764412500000-0' }),
    status: z
      .string()
      .regex(/^[1-5](\d\d|[xX]{2})$/)
      .optional()
      .meta({ description: 'an exact status (`404`) or a class (`4xx`, `5xx`)', example: '4xx' }),
    method: z.enum(REQUEST_LOG_METHODS).optional().meta({ description: 'the HTTP method, upper case', example: 'POST' }),
  })
  .meta({ id: 'RequestLogQuery' });
export type RequestLogQuery = z.output<typeof RequestLogQuery>;

/** One API request as the gateway answered it: never a header's value (the key) or a body. */
export const RequestLogEntry = z
  .object({
    id: z.string().meta({ description: 'the entry, in the order the answers finished', example: '1764412500000-0' }),
    request_id: z.string().meta({ description: 'the `X-Request-Id` of the answer (sent by the client or made by the API)' }),
    method: z.string().meta({ example: 'POST' }),
    path: z
      .string()
      .meta({ description: 'below /api/v1, with the query string, at most 512 characters', example: '/invoice/42/finalize?wait=10' }),
    status: z.number().int().meta({
      description: 'the HTTP status answered; 499 when the client closed the connection before the answer',
      example: 202,
    }),
    duration_ms: z.number().int().meta({ description: 'from the request at the API to the end of the answer', example: 184 }),
    idempotency_key: z.string().nullable().meta({ description: 'the `Idempotency-Key` header, when sent', example: 'order-1017-finalize' }),
    key_id: z.string().nullable().meta({ description: 'the id of the API key that made the request (never the key)', example: 'key_7Hq2' }),
    mode: z.enum(['live', 'test']).meta({ description: 'a live key or a test key: each sees only its own requests' }),
    created_at: Timestamp.meta({ description: 'when the answer finished' }),
  })
  .meta({ id: 'RequestLogEntry' });
export type RequestLogEntry = z.output<typeof RequestLogEntry>;

export const RequestLogPage = z
  .object({
    entries: z.array(RequestLogEntry).meta({ description: 'newest first' }),
    next_cursor: z.string().nullable().meta({ description: 'pass as `cursor` for older entries; null on the last page' }),
  })
  .meta({ id: 'RequestLogPage' });
export type RequestLogPage = z.output<typeof RequestLogPage>;
