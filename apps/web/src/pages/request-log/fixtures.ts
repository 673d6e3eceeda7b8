import type { RequestLogEntry } from '@inv/contracts';

/** An entry as GET /request-log/ answers it. */
export const entry = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id: '1764412500000-0',
  request_id: '5f0c7a52-9d1e-4c1b-8f7a-2b6a1f0e9c33',
  method: 'POST',
  path: '/invoice/42/finalize?wait=10',
  status: 422,
  duration_ms: 1184,
  idempotency_key: 'order-1017-finalize',
  key_id: 'key_7Hq2',
  mode: 'live',
  created_at: '2026-11-29T10:15:00.184Z',
  ...over,
});

/** A realistic page: long paths and keys, every status class. */
export const page = {
  entries: [
    entry(),
    entry({
      id: '1764412499000-0',
      method: 'GET',
      path: `/invoice/?status=OPEN&customer_id=1234567&q=${'Lieferung-und-Montage-'.repeat(8)}&sort=-invoice_date&page=3&limit=100`,
      status: 200,
      duration_ms: 38,
      idempotency_key: null,
      key_id: null,
    }),
    entry({ id: '1764412498000-0', method: 'DELETE', path: '/webhooks/17', status: 503, idempotency_key: `retry-${'x'.repeat(120)}` }),
    entry({ id: '1764412497000-0', method: 'GET', path: '/invoice/42/pdf', status: 302, duration_ms: 12 }),
  ],
  next_cursor: '1764412497000-0',
};
