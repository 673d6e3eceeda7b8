import type { CompanyId, ReminderListQuery } from '@inv/contracts';
import type { ReminderDoc } from '../db/reminders';
import type { ReceivablesDeps } from '../deps';

/** A reminder of the company-wide list, with the invoice it is for. */
export interface ReminderWithInvoice {
  reminder: ReminderDoc;
  invoiceNumber: string;
  customerId: number;
  customerName?: string;
}

/** `r<id>`: the id of a page's last reminder; the next page lists those issued before it. */
const cursorOf = (id: number) => `r${id}`;
const idOfCursor = (cursor: string) => Number(cursor.slice(1));

/**
 * GET /invoice/reminders: the company's reminders across its invoices, newest first (the last one issued first), with
 * each invoice's number and buyer. Two reads per page, whatever the page: the reminders by the `{companyId, id}`
 * index, then their invoices by id.
 */
export async function listCompanyReminders(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  q: ReminderListQuery,
): Promise<{ items: ReminderWithInvoice[]; nextCursor: string | null }> {
  const docs = await deps.reminders.page(companyId, {
    level: q.level,
    dateFrom: q.date_from,
    dateTo: q.date_to,
    beforeId: q.cursor ? idOfCursor(q.cursor) : undefined,
    limit: q.limit + 1, // one more tells whether there is a next page
  });
  const page = docs.slice(0, q.limit);
  const heads = new Map((await deps.invoices.heads(companyId, [...new Set(page.map((r) => r.invoiceId))])).map((h) => [h.id, h]));
  const items = page.flatMap((reminder) => {
    const head = heads.get(reminder.invoiceId);
    // a reminder's invoice is never deleted (finalized invoices stay); a missing one would be a broken store: left out
    return head ? [{ reminder, invoiceNumber: head.number, customerId: head.customerId, customerName: head.customerName }] : [];
  });
  return { items, nextCursor: docs.length > q.limit ? cursorOf(page[page.length - 1]!.id) : null };
}
