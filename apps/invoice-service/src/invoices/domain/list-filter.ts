import type { InvoiceListQuery, InvoiceSort } from '@inv/contracts';
import { invalidData } from '@inv/service-kit';
import type { InvoiceDoc } from './invoice';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each sort order: the stored field it sorts by (besides the id, which breaks ties and is unique per company) and its direction. */
const SORT_KEYS: Record<InvoiceSort, { field?: 'invoiceDate' | 'number' | 'grossCents'; dir: 1 | -1 }> = {
  date: { field: 'invoiceDate', dir: 1 },
  '-date': { field: 'invoiceDate', dir: -1 },
  number: { field: 'number', dir: 1 },
  '-number': { field: 'number', dir: -1 },
  amount: { field: 'grossCents', dir: 1 },
  '-amount': { field: 'grossCents', dir: -1 },
  created: { dir: 1 },
  '-created': { dir: -1 },
};

/** The sort document of a sort order: its field, then the id (a number is unique per company: no tie-break). */
function sortOf(sort: InvoiceSort): Record<string, 1 | -1> {
  const { field, dir } = SORT_KEYS[sort];
  if (field === 'number') return { number: dir };
  return field ? { [field]: dir, id: dir } : { id: dir };
}

/** The position after which a page starts: the last listed invoice's sort key (null: it has none) and id. */
export interface ListPosition {
  key: string | number | null;
  id: number;
}

/** The next_cursor after `last` in `sort` order: base64url of [sort, key, id] (opaque to clients). */
export function listCursorAfter(sort: InvoiceSort, last: Pick<InvoiceDoc, 'id' | 'number' | 'invoiceDate' | 'grossCents'>): string {
  const { field } = SORT_KEYS[sort];
  const key = field ? (last[field] ?? null) : null;
  return Buffer.from(JSON.stringify([sort, key, last.id])).toString('base64url');
}

const badCursor = (message: string) => invalidData(`invalid cursor: ${message}`, [{ path: 'cursor', in: 'query', message }]);

/** The position a `cursor` names, checked against the sort order it must have been made for. */
export function positionOfCursor(sort: InvoiceSort, cursor: string): ListPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('not a next_cursor of this list');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw badCursor('not a next_cursor of this list');
  const [cursorSort, key, id] = parsed as unknown[];
  if (cursorSort !== sort) throw badCursor(`it continues the sort ${JSON.stringify(String(cursorSort)).slice(0, 20)}, not ${sort}`);
  const { field } = SORT_KEYS[sort];
  const keyOk =
    field === undefined
      ? key === null
      : field === 'grossCents'
        ? key === null || Number.isSafeInteger(key)
        : (key === null && field === 'invoiceDate') || (typeof key === 'string' && key.length <= 50);
  if (!keyOk || !Number.isSafeInteger(id) || (id as number) < 1) throw badCursor('not a next_cursor of this list');
  return { key: key as ListPosition['key'], id: id as number };
}

/**
 * The invoices after `at` in `sort` order (keyset paging): the same index that serves the sort serves this range.
 * Invoices without the sort key (a draft has no invoice date yet) sort first ascending and last descending, as MongoDB
 * sorts a missing field; `{ field: null }` matches them.
 */
function after(sort: InvoiceSort, at: ListPosition): Record<string, unknown> {
  const { field, dir } = SORT_KEYS[sort];
  const beyond = dir === 1 ? '$gt' : '$lt';
  if (!field) return { id: { [beyond]: at.id } };
  if (field === 'number') return { number: { [beyond]: at.key } };
  const sameKeyLaterId = { [field]: at.key, id: { [beyond]: at.id } };
  if (at.key === null) return dir === 1 ? { $or: [sameKeyLaterId, { [field]: { $ne: null } }] } : sameKeyLaterId;
  const laterKey = { [field]: { [beyond]: at.key } };
  return { $or: dir === 1 ? [laterKey, sameKeyLaterId] : [laterKey, sameKeyLaterId, { [field]: null }] };
}

/**
 * The MongoDB filter and sort of an invoice list query (pure; `today` is YYYY-MM-DD for `overdue`). With a cursor,
 * `page` holds the filter of the list without it (for its total) and the filter holds the range after the cursor too.
 */
export function invoiceListFilter(
  q: InvoiceListQuery,
  today: string,
): { filter: Record<string, unknown>; sort: Record<string, 1 | -1>; whole: Record<string, unknown> } {
  const filter: Record<string, unknown> = {};
  const and: Record<string, unknown>[] = [];
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
  if (q.open !== undefined) and.push({ status: q.open ? { $in: ['OPEN', 'SENT'] } : 'PAID' });
  if (q.q) {
    // the text literally (escaped: never a pattern of the client's), anywhere in the number or the customer's name
    const re = new RegExp(escapeRegex(q.q), 'i');
    filter.$or = [{ number: re }, { customerName: re }];
  }
  const whole = and.length ? { ...filter, $and: [...and] } : filter;
  if (q.cursor) and.push(after(q.sort, positionOfCursor(q.sort, q.cursor)));
  return { filter: and.length ? { ...filter, $and: and } : filter, sort: sortOf(q.sort), whole };
}
