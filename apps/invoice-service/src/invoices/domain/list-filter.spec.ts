import { InvoiceListQuery } from '@inv/contracts';
import { invoiceSchema } from '../db/invoices';
import { invoiceListFilter } from './list-filter';

const parse = (q: Record<string, string>) => InvoiceListQuery.parse(q);
const today = '2026-11-24';

describe('invoice list filters', () => {
  it('builds the filter of every parameter', () => {
    expect(invoiceListFilter(parse({ status: 'OPEN', customer_id: '7', document_type: 'CREDIT_NOTE' }), today).filter).toEqual({
      status: 'OPEN',
      customerId: 7,
      typeCode: '381',
    });
    expect(invoiceListFilter(parse({ date_from: '2026-01-01', date_to: '2026-06-30', due_to: '2026-07-31' }), today).filter).toEqual({
      invoiceDate: { $gte: '2026-01-01', $lte: '2026-06-30' },
      dueDate: { $lte: '2026-07-31' },
    });
    expect(invoiceListFilter(parse({ overdue: 'true' }), today).filter).toEqual({
      status: { $in: ['OPEN', 'SENT'] },
      dueDate: { $lt: today },
    });
    expect(invoiceListFilter(parse({ overdue: 'true', status: 'PAID' }), today).filter).toEqual({
      status: { $in: [] },
      dueDate: { $lt: today },
    });
    // open: an open amount left (OPEN, SENT) or paid in full (PAID), on the status index, combined with other filters
    expect(invoiceListFilter(parse({ open: 'true', customer_id: '7' }), today).filter).toEqual({
      customerId: 7,
      $and: [{ status: { $in: ['OPEN', 'SENT'] } }],
    });
    expect(invoiceListFilter(parse({ open: 'false', status: 'SENT' }), today).filter).toEqual({
      status: 'SENT',
      $and: [{ status: 'PAID' }],
    });
    const q = invoiceListFilter(parse({ q: 'RE-2026.*' }), today).filter.$or as { number: RegExp }[];
    expect(q[0].number.test('re-2026.*x')).toBe(true);
    expect(q[0].number.test('RE-2026-00001')).toBe(false); // the text is matched literally
  });

  it('sorts by date, number, amount or creation, both ways (newest first by default)', () => {
    expect(invoiceListFilter(parse({}), today).sort).toEqual({ id: -1 });
    expect(invoiceListFilter(parse({ sort: 'amount' }), today).sort).toEqual({ grossCents: 1, id: 1 });
    expect(invoiceListFilter(parse({ sort: '-date' }), today).sort).toEqual({ invoiceDate: -1, id: -1 });
  });

  it('answers unknown values and reversed ranges with errors naming the parameter', () => {
    const bad = InvoiceListQuery.safeParse({
      status: 'LOST',
      sort: 'size',
      overdue: 'yes',
      date_from: '2026-02-01',
      date_to: '2026-01-01',
    });
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['overdue', 'sort', 'status']);
    expect(InvoiceListQuery.safeParse({ date_from: '2026-02-01', date_to: '2026-01-01' }).error?.issues[0].path).toEqual(['date_to']);
  });

  it('has an index led by companyId for every filtered and sorted field (no collection scans)', () => {
    const indexes = invoiceSchema.indexes().map(([keys]) => Object.keys(keys));
    const covered = (field: string) => indexes.some((k) => k[0] === 'companyId' && k[1] === field);
    for (const field of ['status', 'customerId', 'typeCode', 'invoiceDate', 'dueDate', 'number', 'customerName', 'grossCents', 'id'])
      expect([field, covered(field)]).toEqual([field, true]);
  });
});
