import { RequestLogPage, RequestLogQuery } from '@inv/contracts';
import { commonErrors, jsonExample, queryParams, type Operation } from '../builder';

const example = {
  entries: [
    {
      id: '1764412500000-0',
      request_id: '5f0c7a52-3f7e-4a57-9d7a-0b8e1f6c2d41',
      method: 'POST',
      path: '/invoice/42/finalize',
      status: 202,
      duration_ms: 184,
      idempotency_key: 'order-1017-finalize',
      key_id: 'key_7Hq2',
      mode: 'live',
      created_at: '2026-11-21T10:15:00.184Z',
    },
    {
      id: '1764412499000-0',
      request_id: 'c1d2e3f4-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
      method: 'GET',
      path: '/customer/?page=2&limit=25',
      status: 200,
      duration_ms: 23,
      idempotency_key: null,
      key_id: 'key_7Hq2',
      mode: 'live',
      created_at: '2026-11-21T10:14:59.023Z',
    },
  ],
  next_cursor: '1764412499000-0',
};

/** The request log: answered by the gateway itself (request-log/). */
export function requestLogPaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Request log'], ...o });
  return {
    '/request-log/': {
      get: op({
        operationId: 'listRequestLog',
        summary: 'List the last API requests',
        description:
          "The company's last 1,000 API requests (kept 30 days after the last one), newest first, with cursor pagination: method, path with " +
          'query string, status, duration, request id, `Idempotency-Key` and the id of the key that sent it, never a header or a body. ' +
          'Requests without a valid key (401) are not recorded, nor are reads of the request log. A test key sees the requests ' +
          'of test keys only, a live key those of live keys. Every role may read it.',
        parameters: queryParams(RequestLogQuery),
        responses: { 200: jsonExample(RequestLogPage, example), ...commonErrors() },
      }),
    },
  };
}
