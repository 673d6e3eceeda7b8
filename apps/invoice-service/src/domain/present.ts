import { toJsonNumber } from '@inv/money';
import type { InvoiceDoc, PositionDoc } from '../db/invoices';
import type { JobDoc } from '../db/jobs';
import { presentTotals, totalsOf } from './totals';

export function presentPosition(p: PositionDoc, net?: string) {
  const quantity = toJsonNumber(p.quantity);
  const unit = toJsonNumber(p.unitPrice);
  return {
    id: p.id,
    title: p.title,
    description: p.description ?? null,
    quantity,
    unit_id: p.unitCode,
    unit_net_amount: unit,
    single_net_amount: net === undefined ? null : toJsonNumber(net),
    tax_rate: toJsonNumber(p.taxRate),
    tax_treatment_id: p.taxTreatmentId,
    discount_type: p.discountType ?? null,
    discount_value: p.discountValue === undefined ? null : toJsonNumber(p.discountValue),
  };
}

/** The full invoice object (GET /invoice/{id}); list entries use the same shape without positions. */
export function presentInvoice(inv: InvoiceDoc, opts: { positions: boolean }) {
  const totals = totalsOf(inv.positions);
  return {
    id: inv._id,
    invoice_id: inv._id,
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
    meta: inv.meta ?? null,
    note: inv.note ?? null,
    invoice_date: inv.invoiceDate ?? null,
    due_date: inv.dueDate ?? null,
    paid_date: inv.paidDate ?? null,
    payment_method: inv.paymentMethod ?? null,
    payment_reference: inv.paymentReference ?? null,
    preceding_invoice_id: inv.precedingInvoiceId ?? null,
    ...presentTotals(totals),
    ...(opts.positions ? { positions: inv.positions.map((p, i) => presentPosition(p, totals.lines[i]?.net)) } : { position_count: inv.positions.length }),
    created_at: inv.createdAt.toISOString(),
    updated_at: inv.updatedAt.toISOString(),
    finalized_at: inv.finalizedAt?.toISOString() ?? null,
    cancelled_at: inv.cancelledAt?.toISOString() ?? null,
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
