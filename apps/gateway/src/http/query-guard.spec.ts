import type { Request, Response } from 'express';
import { buildOpenApiDocument } from '../openapi/document';
import { queryTable, refuseUnknownQuery } from './query-guard';

const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
const guard = refuseUnknownQuery(doc);

/** What the guard does with `method url` (relative to /api/v1): passes it on, or the problem it answers. */
function run(method: string, url: string): { passed: boolean; status?: number; body?: Record<string, unknown> } {
  const out: { passed: boolean; status?: number; body?: Record<string, unknown> } = { passed: false };
  const res = {
    status(s: number) {
      out.status = s;
      return res;
    },
    type: () => res,
    send(b: Record<string, unknown>) {
      out.body = b;
      return res;
    },
  };
  guard({ method, url, path: url.split('?')[0] } as Request, res as unknown as Response, () => (out.passed = true));
  return out;
}

describe('query parameters an operation does not take are refused at the gateway', () => {
  it('the statement PDF takes language (and from, to); lang is a 400 pointing to language', () => {
    expect(run('GET', '/customer/7/statement/pdf?language=de&from=2026-01-01').passed).toBe(true);
    const res = run('GET', '/customer/7/statement/pdf?lang=de');
    expect([res.status, res.body?.code]).toEqual([400, 'UNKNOWN_FIELD']);
    expect(res.body?.errors).toEqual([{ path: 'lang', in: 'query', message: 'unknown query parameter; did you mean language?' }]);
  });

  it("an operation without query parameters names that it takes none; the published SDK's queries pass", () => {
    const res = run('GET', '/customer/7?language=de');
    expect([res.status, res.body?.errors]).toEqual([
      400,
      [{ path: 'language', in: 'query', message: 'unknown query parameter; this operation takes none' }],
    ]);
    expect(res.body?.detail).toBe('unknown query parameter: language');
    expect(run('GET', '/invoice/?page=1&limit=25').passed).toBe(true);
    expect(run('GET', '/invoice/tax-treatments?locale=de').passed).toBe(true);
    expect(run('GET', '/invoice/12/job/5f0c?wait=25').passed).toBe(true);
    expect(run('HEAD', '/invoice/?page=2').passed).toBe(true);
  });

  it('lists the parameters an operation takes when nothing is close', () => {
    const res = run('GET', '/inbound/4/pdf?format=x');
    expect(res.body?.errors).toEqual([{ path: 'format', in: 'query', message: 'unknown query parameter; this operation takes language' }]);
  });

  it('query schemas with an id of their own are documented (and so taken): the audit log and the delivery log', () => {
    expect(run('GET', '/audit-log/?resource_type=invoice&limit=50').passed).toBe(true);
    expect(run('GET', '/webhook-endpoints/we_1/deliveries?status=failed&limit=10').passed).toBe(true);
  });

  it('a path or method the document does not describe is left to its service; no query passes untouched', () => {
    expect(run('GET', '/no-such-prefix/?x=1').passed).toBe(true);
    expect(run('GET', '/customer/7').passed).toBe(true);
    expect(run('GET', '/customer/7?').passed).toBe(true);
  });

  it('every operation that reads a query in its service lists those parameters in the document', () => {
    const table = queryTable(doc);
    const takes = (method: string, path: string) => table.find((r) => r.pattern.test(path) && r.query.has(method))?.query.get(method);
    expect(takes('GET', '/customer/')).toEqual(expect.arrayContaining(['page', 'limit', 'q', 'email', 'contact_type', 'is_active']));
    expect(takes('GET', '/audit-log/')).toEqual(expect.arrayContaining(['resource_type', 'resource_id', 'actor']));
    expect(takes('GET', '/webhook-endpoints/we_1/deliveries')).toEqual(expect.arrayContaining(['status', 'limit', 'cursor']));
    expect(takes('GET', '/invoice/tax-treatments')).toEqual(['locale']);
    expect(takes('GET', '/customer/7')).toEqual([]);
  });
});
