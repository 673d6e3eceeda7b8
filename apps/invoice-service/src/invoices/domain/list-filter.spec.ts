import { InvoiceListQuery } from '@inv/contracts';
import { invoiceSchema } from '../db/invoices';
import { invoiceListFilter, listCursorAfter, positionOfCursor } from './list-filter';

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

  it('pages after a cursor: the range after the last invoice in the sort order, its count without that range', () => {
    const last = { id: 40, number: 'RE-2026-00040', invoiceDate: '2026-05-01', grossCents: 1200 };
    const after = (sort: string, doc: typeof last | (Omit<typeof last, 'invoiceDate'> & { invoiceDate?: string }) = last, extra = {}) => {
      const q = parse({ sort, ...extra, cursor: listCursorAfter(parse({ sort }).sort, doc as typeof last) });
      return invoiceListFilter(q, today);
    };
    expect(after('-created').filter).toEqual({ $and: [{ id: { $lt: 40 } }] });
    expect(after('created').filter).toEqual({ $and: [{ id: { $gt: 40 } }] });
    expect(after('number').filter).toEqual({ $and: [{ number: { $gt: 'RE-2026-00040' } }] });
    expect(after('-amount').filter).toEqual({
      $and: [{ $or: [{ grossCents: { $lt: 1200 } }, { grossCents: 1200, id: { $lt: 40 } }, { grossCents: null }] }],
    });
    expect(after('date').filter).toEqual({
      $and: [{ $or: [{ invoiceDate: { $gt: '2026-05-01' } }, { invoiceDate: '2026-05-01', id: { $gt: 40 } }] }],
    });
    // a draft has no invoice date: first ascending, last descending
    const { invoiceDate: _none, ...draft } = last;
    expect(after('date', draft).filter).toEqual({
      $and: [{ $or: [{ invoiceDate: null, id: { $gt: 40 } }, { invoiceDate: { $ne: null } }] }],
    });
    expect(after('-date', draft).filter).toEqual({ $and: [{ invoiceDate: null, id: { $lt: 40 } }] });
    // the other filters stay; the total counts the whole list
    const open = after('-created', last, { status: 'OPEN', open: 'true' });
    expect(open.filter).toEqual({ status: 'OPEN', $and: [{ status: { $in: ['OPEN', 'SENT'] } }, { id: { $lt: 40 } }] });
    expect(open.whole).toEqual({ status: 'OPEN', $and: [{ status: { $in: ['OPEN', 'SENT'] } }] });
  });

  it('refuses a cursor that is not a next_cursor of the same sort, or one given with a page', () => {
    const cursor = listCursorAfter('-created', { id: 3, number: 'A' });
    const bad = (sort: Parameters<typeof positionOfCursor>[0], c: string) => () => positionOfCursor(sort, c);
    expect(bad('-date', cursor)).toThrow(/another sort|continues the sort/);
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const [sort, c] of [
      ['-created', 'x'],
      ['-created', forged({ $where: 'sleep(1000)' })],
      ['-created', forged(['-created', null, { $gt: 0 }])],
      ['-created', forged(['-created', null, 0])],
      ['number', forged(['number', { $regex: '.*' }, 3])],
      ['number', forged(['number', 'x'.repeat(51), 3])],
      ['-amount', forged(['-amount', '12', 3])],
      ['-created', forged(['-created', null, 3, 4])],
    ] as const)
      expect(bad(sort, c)).toThrow(expect.objectContaining({ kind: 'invalid_data' }));
    expect(positionOfCursor('-created', cursor)).toEqual({ key: null, id: 3 });
    expect(InvoiceListQuery.safeParse({ cursor, page: '2' }).error?.issues[0].path).toEqual(['page']);
    expect(InvoiceListQuery.safeParse({ cursor: 'a/b+c=' }).success).toBe(false);
    expect(InvoiceListQuery.safeParse({ cursor: 'a'.repeat(201) }).success).toBe(false);
    expect(InvoiceListQuery.safeParse({ q: 'x'.repeat(101) }).success).toBe(false);
  });

  it('has an index led by companyId for every filtered and sorted field (no collection scans)', () => {
    const indexes = invoiceSchema.indexes().map(([keys]) => Object.keys(keys));
    const covered = (field: string) => indexes.some((k) => k[0] === 'companyId' && k[1] === field);
    for (const field of ['status', 'customerId', 'typeCode', 'invoiceDate', 'dueDate', 'number', 'customerName', 'grossCents', 'id'])
      expect([field, covered(field)]).toEqual([field, true]);
    // a status filter with each sort order: company, status, then the sort's fields in its order
    const hasIndex = (...keys: string[]) => indexes.some((k) => k.join() === ['companyId', ...keys].join());
    for (const sort of ['date', 'number', 'amount', 'created'] as const)
      expect([sort, hasIndex('status', ...Object.keys(invoiceListFilter(parse({ sort }), today).sort))]).toEqual([sort, true]);
    expect(hasIndex('customerId', 'id')).toBe(true);
  });
});
