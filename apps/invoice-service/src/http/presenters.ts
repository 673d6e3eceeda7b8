import type { InvoiceTotals } from '@inv/money';
import type { InvoiceDoc, PositionDoc } from '../invoices/db/invoices';
import type { JobDoc } from '../invoices/db/jobs';
import type { PaymentDoc } from '../receivables/db/payments';
import { amountToCents, centsToNumber, openCentsOf, paymentStateOf, takesPayments } from '../receivables/domain/payments';
import { jsonNumber, presentTotals, totalsOf } from '../invoices/domain/totals';

/**
 * Presentation never throws: input bounds keep new data exact, but a record stored before the bounds
 * existed (or written by hand) must still be readable, so totals that cannot be computed show as null.
 */
function totalsOrUndefined(positions: PositionDoc[]): InvoiceTotals | undefined {
  try {
    return totalsOf(positions);
  } catch {
    return undefined;
  }
}

const NO_TOTALS = { net_amount: null, tax_amount: null, gross_amount: null, amount_due: null, currency: 'EUR', vat_breakdown: [] };

/**
 * One position as the API shows it. `line` is its computed line (libs/money): single_net_amount is the specification's
 * net total of the position before discount (quantity x unit price, rounded to the cent); net_amount_after_discount is
 * the line net amount after the position's discount (EN 16931 BT-131, what the totals and the e-invoice add up).
 */
export function presentPosition(p: PositionDoc, line?: { grossRounded: string; net: string }) {
  const quantity = jsonNumber(p.quantity);
  const unit = jsonNumber(p.unitPrice);
  return {
    id: p.id,
    title: p.title,
    description: p.description ?? null,
    quantity,
    unit_id: p.unitCode,
    unit_net_amount: unit,
    single_net_amount: line === undefined ? null : jsonNumber(line.grossRounded),
    net_amount_after_discount: line === undefined ? null : jsonNumber(line.net),
    tax_rate: jsonNumber(p.taxRate),
    tax_treatment_id: p.taxTreatmentId,
    discount_type: p.discountType ?? null,
    discount_value: p.discountValue === undefined ? null : jsonNumber(p.discountValue),
    product_id: p.productId ?? null,
  };
}

export function presentPositions(positions: PositionDoc[], totals = totalsOrUndefined(positions)) {
  return positions.map((p, i) => presentPosition(p, totals?.lines[i]));
}

function presentMeta(inv: InvoiceDoc): unknown {
  if (inv.metaJson) {
    try {
      return JSON.parse(inv.metaJson);
    } catch {
      return null;
    }
  }
  return inv.meta ?? null;
}

/** The full invoice object (GET /invoice/{id}); list entries use the same shape without positions. */
export function presentInvoice(inv: InvoiceDoc, opts: { positions: boolean }) {
  const totals = totalsOrUndefined(inv.positions);
  return {
    id: inv.id,
    invoice_id: inv.id,
    customer_id: inv.customerId,
    status: inv.status,
    invoice_number: inv.number,
    document_type: inv.typeCode === '381' ? 'CREDIT_NOTE' : 'INVOICE',
    invoice_format: inv.format,
    ftl_template_id: inv.templateId ?? null,
    tax_treatment_id: inv.taxTreatmentId ?? null,
    benefit_period_start: inv.benefitPeriodStart ?? null,
    benefit_period_end: inv.benefitPeriodEnd ?? null,
    buyer_reference: inv.buyerReference ?? null,
    meta: presentMeta(inv),
    note: inv.note ?? null,
    invoice_date: inv.invoiceDate ?? null,
    due_date: inv.dueDate ?? null,
    paid_date: inv.paidDate ?? null,
    payment_method: inv.paymentMethod ?? null,
    payment_reference: inv.paymentReference ?? null,
    preceding_invoice_id: inv.precedingInvoiceId ?? null,
    ...(totals ? presentTotals(totals) : NO_TOTALS),
    ...presentPaymentState(inv),
    ...(opts.positions ? { positions: presentPositions(inv.positions, totals) } : { position_count: inv.positions.length }),
    created_at: inv.createdAt.toISOString(),
    updated_at: inv.updatedAt.toISOString(),
    finalized_at: inv.finalizedAt?.toISOString() ?? null,
    cancelled_at: inv.cancelledAt?.toISOString() ?? null,
  };
}

/** What was paid of a finalized document and what is open (null for drafts and cancelled ones: nothing is owed). */
function presentPaymentState(inv: InvoiceDoc) {
  const finalized = takesPayments(inv.status) || inv.status === 'PAID';
  const state = paymentStateOf(inv);
  return {
    paid_amount: centsToNumber(state.paidCents),
    skonto_amount: centsToNumber(state.discountCents),
    credited_amount: centsToNumber(state.creditedCents),
    open_amount: finalized ? centsToNumber(openCentsOf(state)) : null,
  };
}

export function presentPayment(p: PaymentDoc) {
  return {
    id: p.id,
    invoice_id: p.invoiceId,
    amount: centsToNumber(amountToCents(p.amount)),
    discount: centsToNumber(amountToCents(p.discount)),
    date: p.date,
    method: p.method ?? null,
    reference: p.reference ?? null,
    source: p.source,
    exported: p.exportedAt !== undefined && p.exportedAt !== null,
    reversed_at: p.reversedAt?.toISOString() ?? null,
    created_at: p.createdAt.toISOString(),
  };
}

export function presentJob(job: JobDoc) {
  return {
    job_id: job._id,
    id: job._id,
    task: job.task,
    status: job.status,
    invoice_id: job.invoiceId,
    ...(job.status === 'failed' ? { error_message: job.errorMessage ?? 'finalization failed' } : {}),
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}
