import type { Request, Response } from 'express';

/** Public path prefix the gateway serves the services under (Link headers point there). */
const PUBLIC_PREFIX = '/api/v1';
/**
 * Longest `Link` header sent. Each link repeats the request's query, so a long query made it four times as long: past
 * the 16 KiB Node allows for a message's headers, the gateway could not read the service's answer and said 503.
 */
export const MAX_LINK_HEADER_BYTES = 8 * 1024;

/**
 * Pagination metadata as headers: `X-Total-Count` and an RFC 8288 `Link` with first, prev, next and last
 * (relative references to the public URL, other query parameters kept). Lists whose body is a bare JSON
 * array (as existing SDKs read them) carry their metadata only here. Links longer than MAX_LINK_HEADER_BYTES in all
 * are left out (a link without the query's filters would point at other results); X-Total-Count is always sent.
 */
export function setPaginationHeaders(req: Request, res: Response, page: { total: number; page: number; limit: number }): void {
  const last = Math.max(1, Math.ceil(page.total / page.limit));
  const link = (n: number, rel: string) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string' && k !== 'page' && k !== 'limit') params.set(k, v);
    params.set('page', String(n));
    params.set('limit', String(page.limit));
    return `<${PUBLIC_PREFIX}${req.path}?${params.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(Math.min(page.page - 1, last), 'prev'));
  if (page.page < last) links.push(link(page.page + 1, 'next'));
  links.push(link(last, 'last'));
  res.setHeader('x-total-count', String(page.total));
  const header = links.join(', ');
  if (Buffer.byteLength(header) <= MAX_LINK_HEADER_BYTES) res.setHeader('link', header);
}

/**
 * The headers of a page reached by a cursor (keyset paging has no page numbers): `X-Total-Count`, and a `Link` to the
 * first page and, unless this is the last page, to the next one (`cursor` set to `nextCursor`, other parameters kept).
 */
export function setCursorHeaders(req: Request, res: Response, page: { total: number; nextCursor: string | null }): void {
  const link = (cursor: string | null, rel: string) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string' && k !== 'page' && k !== 'cursor') params.set(k, v);
    if (cursor) params.set('cursor', cursor);
    const query = params.toString();
    return `<${PUBLIC_PREFIX}${req.path}${query ? `?${query}` : ''}>; rel="${rel}"`;
  };
  const links = [link(null, 'first')];
  if (page.nextCursor) links.push(link(page.nextCursor, 'next'));
  res.setHeader('x-total-count', String(page.total));
  const header = links.join(', ');
  if (Buffer.byteLength(header) <= MAX_LINK_HEADER_BYTES) res.setHeader('link', header);
}
