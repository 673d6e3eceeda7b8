import type { InvoiceListQuery } from '@inv/contracts';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SORTS: Record<string, Record<string, 1 | -1>> = {
  date: { invoiceDate: 1, id: 1 },
  '-date': { invoiceDate: -1, id: -1 },
  number: { number: 1 },
  '-number': { number: -1 },
  amount: { grossCents: 1, id: 1 },
  '-amount': { grossCents: -1, id: -1 },
  created: { id: 1 },
  '-created': { id: -1 },
};

/** The MongoDB filter and sort of an invoice list query (pure; `today` is YYYY-MM-DD for `overdue`). */
export function invoiceListFilter(q: InvoiceListQuery, today: string): { filter: Record<string, unknown>; sort: Record<string, 1 | -1> } {
  const filter: Record<string, unknown> = {};
  if (q.status) filter.status = q.status;
  if (q.customer_id) filter.customerId = q.customer_id;
  if (q.document_type) filter.typeCode = q.document_type === 'CREDIT_NOTE' ? '381' : '380';
  const range = (from?: string, to?: string) => ({ ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) });
  if (q.date_from || q.date_to) filter.invoiceDate = range(q.date_from, q.date_to);
  if (q.due_from || q.due_to) filter.dueDate = range(q.due_from, q.due_to);
  if (q.overdue === true) {
    filter.status = q.status && !['OPEN', 'SENT'].includes(q.status) ? { $in: [] } : (q.status ?? { $in: ['OPEN', 'SENT'] });
    filter.dueDate = { ...((filter.dueDate as object) ?? {}), $lt: today };
  } else if (q.overdue === false) {
    filter.$nor = [{ status: { $in: ['OPEN', 'SENT'] }, dueDate: { $lt: today } }];
  }
  // open amount > 0 exactly while a finalized document is OPEN or SENT (it becomes PAID at zero, by a payment or by a
  // credit note that leaves nothing open: settle-credit-note.ts): the status index serves it
  if (q.open !== undefined) filter.$and = [{ status: q.open ? { $in: ['OPEN', 'SENT'] } : 'PAID' }];
  if (q.q) {
    const re = new RegExp(escapeRegex(q.q), 'i');
    filter.$or = [{ number: re }, { customerName: re }];
  }
  return { filter, sort: SORTS[q.sort] };
}
