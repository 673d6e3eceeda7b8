import type { PageCaller } from '../kit/api-client';
import { customerNames, day, ibanGroups, money, pageParam, pager, query } from './receivables-format';

describe('formatting for the receivables pages', () => {
  it('formats decimal strings exactly and numbers as they are, in German and English', () => {
    expect(money('de', '901234567890123.99')).toBe('901.234.567.890.123,99\u00a0€');
    expect(money('en', 1031.86)).toBe('€1,031.86');
    expect(money('de', 'not-a-number')).toBe('not-a-number');
    expect(money('de', null)).toBe('');
    expect(day('de', '2026-11-26')).toBe('26.11.2026');
    expect(day('en', '2026-11-27T23:30:00.000Z')).toBe('27 Nov 2026');
    expect(ibanGroups('DE44500105175407324931')).toBe('DE44 5001 0517 5407 3249 31');
  });

  it('bounds the page parameter and builds query strings without empty values', () => {
    expect(pageParam('3')).toBe(3);
    for (const bad of ['0', '-1', '1e3', '123456', 'x', undefined, ['2']]) expect(pageParam(bad)).toBe(1);
    expect(query({ a: 'x y', b: '', c: undefined, d: 2 })).toBe('?a=x+y&d=2');
    expect(pager({ page: 1, limit: 25, total: 25 }, String, { previous: 'p', next: 'n', pageOf: '{page}/{pages}', pagination: 'P' })).toBe(
      '',
    );
  });

  it('names customers with one call per customer for a few, and one list call for many', async () => {
    const calls: string[] = [];
    const api = (async (_m: string, path: string) => {
      calls.push(path);
      if (path === '/customer/?limit=100')
        return {
          ok: true,
          status: 200,
          body: [1, 2, 3, 4].map((id) => ({ id, organization_name: `Firma ${id}`, first_name: null, last_name: null })),
        };
      const id = Number(path.split('/').pop());
      return id === 99
        ? { ok: false, status: 404, body: {} }
        : { ok: true, status: 200, body: { id, organization_name: null, first_name: 'Erika', last_name: `Muster ${id}` } };
    }) as unknown as PageCaller;
    const as = { requestId: 'r' };
    expect([...(await customerNames(api, as, [7, 7, 99]))]).toEqual([[7, 'Erika Muster 7']]);
    expect(calls).toEqual(['/customer/7', '/customer/99']);
    calls.length = 0;
    const many = await customerNames(api, as, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(many.get(1)).toBe('Firma 1');
    expect(many.get(5)).toBe('Erika Muster 5');
    expect(calls).toEqual(['/customer/?limit=100', '/customer/5', '/customer/6', '/customer/7', '/customer/8', '/customer/9']);
  });
});
