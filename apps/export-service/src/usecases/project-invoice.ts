import { groupCommit } from '@inv/outbox';
import type { EventOf } from '@inv/runtime';
import type { ExportInvoiceDoc } from '../db/export-invoices';
import type { ExportDeps } from '../support/deps';

const RANK: Record<ExportInvoiceDoc['status'], number> = { OPEN: 0, SENT: 1, PAID: 2, CANCELLED: 3 };
/** Payment state only moves forward (a late SENT after PAID changes nothing). */
const forward = (cur: ExportInvoiceDoc['status'] | undefined, next: ExportInvoiceDoc['status']) =>
  cur && RANK[cur] >= RANK[next] ? cur : next;

/**
 * A finalized invoice or credit note enters the export's read model with what a booking row needs, at most once per
 * envelope id. The finalizations of one company that arrive together are projected in one transaction
 * (groupCommit).
 */
export function finalizedProjector(deps: ExportDeps): (msg: EventOf<'invoice.finalized.v1'>) => Promise<void> {
  return groupCommit<EventOf<'invoice.finalized.v1'>>(deps, {
    key: (msg) => msg.companyId,
    inbox: (msg) => msg,
    apply: (batch, session) =>
      deps.invoices.upsertMany(
        batch.map(({ companyId, data: d }) => ({
          companyId,
          invoiceId: d.invoiceId,
          set: {
            invoiceId: d.invoiceId,
            finalized: true,
            number: d.number,
            typeCode: d.typeCode,
            invoiceDate: d.invoiceDate,
            dueDate: d.dueDate,
            serviceDate: d.serviceDate,
            customerId: d.customerId,
            customerNumber: d.customerNumber,
            buyer: d.buyer,
            vatGroups: d.vatBreakdown,
            totalGross: d.totalGross,
            precedingInvoiceNumber: d.precedingInvoiceNumber,
            pdfKey: d.pdf?.key,
            pdfFilename: d.pdf?.filename,
            updatedAt: deps.now(),
          },
          // OPEN is the first status: a document that is already there (an early status change made it) keeps its
          // status, which is what forward(current, 'OPEN') answers, without reading it first
          setOnInsert: { status: forward(undefined, 'OPEN') },
        })),
        session,
      ),
  });
}

/** SENT, PAID or CANCELLED: the payment state of the read model (an early event creates a placeholder). */
export async function projectStatusChanged(deps: ExportDeps, msg: EventOf<'invoice.status-changed.v1'>) {
  const d = msg.data;
  await deps.commitOnce(msg, async (session) => {
    const current = await deps.invoices.get(msg.companyId, d.invoiceId, session);
    const status = forward(current?.status, d.status);
    const set: Partial<ExportInvoiceDoc> = { status, updatedAt: deps.now() };
    if (d.status === 'PAID' && status === 'PAID') set.paidDate = d.paidDate ?? msg.occurredAt.slice(0, 10);
    await deps.invoices.upsert(
      msg.companyId,
      d.invoiceId,
      set,
      { invoiceId: d.invoiceId, customerId: d.customerId, finalized: false },
      session,
    );
  });
}
