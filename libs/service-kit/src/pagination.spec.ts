import type { Request, Response } from 'express';
import { MAX_LINK_HEADER_BYTES, setCursorHeaders, setPaginationHeaders } from './pagination';

const headersOf = (query: Record<string, unknown>, page = { total: 100, page: 2, limit: 10 }) => {
  const headers: Record<string, string> = {};
  const res = { setHeader: (k: string, v: string) => void (headers[k] = v) } as unknown as Response;
  setPaginationHeaders({ path: '/invoice/', query } as unknown as Request, res, page);
  return headers;
};

describe('setPaginationHeaders', () => {
  it('links first, prev, next and last with the other query parameters kept', () => {
    const h = headersOf({ status: 'OPEN', page: '2', limit: '10' });
    expect(h['x-total-count']).toBe('100');
    expect(h.link).toBe(
      [
        '</api/v1/invoice/?status=OPEN&page=1&limit=10>; rel="first"',
        '</api/v1/invoice/?status=OPEN&page=1&limit=10>; rel="prev"',
        '</api/v1/invoice/?status=OPEN&page=3&limit=10>; rel="next"',
        '</api/v1/invoice/?status=OPEN&page=10&limit=10>; rel="last"',
      ].join(', '),
    );
  });

  it('leaves the links out rather than send a header past the bound (a long query repeated four times)', () => {
    // a 15 KiB query fits into a request; four copies of it did not fit into an answer's headers
    const h = headersOf({ customer_name: 'x'.repeat(15 * 1024) });
    expect(h['x-total-count']).toBe('100');
    expect(h.link).toBeUndefined();
    const fits = headersOf({ customer_name: 'x'.repeat(1500) });
    expect(Buffer.byteLength(fits.link)).toBeLessThanOrEqual(MAX_LINK_HEADER_BYTES);
  });
});

describe('setCursorHeaders', () => {
  const headersOf = (query: Record<string, unknown>, nextCursor: string | null) => {
    const headers: Record<string, string> = {};
    const res = { setHeader: (k: string, v: string) => void (headers[k] = v) } as unknown as Response;
    setCursorHeaders({ path: '/invoice/', query } as unknown as Request, res, { total: 100, nextCursor });
    return headers;
  };

  it('links the first page and the next one by its cursor, the other query parameters kept', () => {
    const h = headersOf({ status: 'OPEN', limit: '10', cursor: 'abc' }, 'def');
    expect(h['x-total-count']).toBe('100');
    expect(h.link).toBe(
      ['</api/v1/invoice/?status=OPEN&limit=10>; rel="first"', '</api/v1/invoice/?status=OPEN&limit=10&cursor=def>; rel="next"'].join(', '),
    );
    expect(headersOf({ cursor: 'abc' }, null).link).toBe('</api/v1/invoice/>; rel="first"');
  });
});
