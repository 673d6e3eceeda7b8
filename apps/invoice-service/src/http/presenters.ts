/**
 * The one home of response shaping in invoice-service: every body the routes answer with (invoices/, receivables/,
 * mail/ http/) is built here from the features' documents and results, with the API's snake_case names.
 */
import { toDecimal, toJsonNumber, type InvoiceTotals } from '@inv/money';
import {
  formatNumber,
  jsonNumber,
  nextValueOf,
  totalsOf,
  type AttachmentDoc,
  type InvoiceDoc,
  type JobDoc,
  type PositionDoc,
  type ProductDoc,
  type SequenceDoc,
  type ValidationResult,
} from '../invoices';
import { PLACEHOLDERS, type EmailDoc, type EmailTextsView, type TestMailDoc } from '../mail';
import type { DownloadLink } from '../platform';
import {
  LEVELS,
  REMINDER_PLACEHOLDERS,
  amountToCents,
  centsToNumber,
  openCentsOf,
  paymentStateOf,
  takesPayments,
  type BankEntryDoc,
  type BankStatementDoc,
  type PaymentDoc,
  type ProposalDoc,
  type ReminderDoc,
  type ReminderSettingsView,
  type ReminderWithInvoice,
} from '../receivables';

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
    customer_name: inv.customerName ?? null,
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

export const presentAttachment = (a: Omit<AttachmentDoc, '_id'>) => ({
  id: a.id,
  filename: a.filename,
  content_type: a.contentType,
  size: a.size,
  sha256: a.sha256,
  description: a.description ?? null,
  created_at: a.createdAt.toISOString(),
});

export const presentProduct = (p: Omit<ProductDoc, '_id'>) => ({
  id: p.id,
  name: p.name,
  description: p.description ?? null,
  unit_id: p.unitCode,
  unit_net_amount: jsonNumber(p.unitPrice),
  tax_rate: jsonNumber(p.taxRate),
  tax_treatment_id: p.taxTreatmentId,
  sku: p.sku ?? null,
  active: p.active,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

export const presentSequence = (seq: SequenceDoc, now: Date) => ({
  document_type: seq.documentType,
  pattern: seq.pattern,
  reset: seq.reset,
  next_value: nextValueOf(seq, now),
  next_number: formatNumber(seq.pattern, now, nextValueOf(seq, now)),
});

export const presentBankStatement = (s: Omit<BankStatementDoc, '_id'>) => ({
  id: s.id,
  message_id: s.messageId,
  camt_version: s.camtVersion,
  statements: s.statements.map((x) => ({ id: x.id, account_iban: x.accountIban, currency: x.currency ?? null })),
  filename: s.filename ?? null,
  size: s.size,
  sha256: s.sha256,
  entries_total: s.lineCount,
  credits: s.creditCount,
  debits: s.debitCount,
  credits_with_proposals: s.proposalCount,
  confirmed: s.confirmedCount,
  ignored: s.ignoredCount,
  created_at: s.createdAt.toISOString(),
});

export const presentBankEntry = (e: Omit<BankEntryDoc, '_id'>) => ({
  id: e.index,
  statement_ref: e.statementRef,
  type: e.credit ? ('credit' as const) : ('debit' as const),
  amount: e.amount,
  currency: e.currency,
  reversal: e.reversal,
  booking_status: e.bookingStatus ?? null,
  booking_date: e.bookingDate ?? null,
  value_date: e.valueDate ?? null,
  payer_name: e.payerName ?? null,
  payer_iban: e.payerIban ?? null,
  end_to_end_id: e.endToEndId ?? null,
  bank_reference: e.bankRef ?? null,
  remittance_information: e.unstructured,
  references: e.references,
  additional_information: e.additionalInfo ?? null,
  state: e.state,
  proposals: e.proposals.map((p) => ({
    invoice_id: p.invoiceId,
    invoice_number: p.number,
    customer_id: p.customerId,
    amount: centsToNumber(p.amountCents),
    open_amount: centsToNumber(p.openCents),
    confidence: p.confidence,
    reasons: p.reasons,
  })),
  payment: e.confirmed
    ? {
        payment_id: e.confirmed.paymentId,
        invoice_id: e.confirmed.invoiceId,
        amount: centsToNumber(e.confirmed.amountCents),
        confirmed_at: new Date(e.confirmed.at).toISOString(),
      }
    : null,
});

export const presentReminder = (r: ReminderDoc) => ({
  id: r.id,
  invoice_id: r.invoiceId,
  level: r.level,
  date: r.date,
  language: r.language,
  b2b: r.b2b,
  open_amount: toJsonNumber(r.openAmount),
  fee: toJsonNumber(r.fee),
  fees: toJsonNumber(r.fees),
  flat_fee: toJsonNumber(r.flatFee),
  interest: toJsonNumber(r.interest),
  interest_from: r.interestFrom,
  interest_periods: r.periods.map((p) => ({ from: p.from, to: p.to, days: p.days, rate_percent: toJsonNumber(p.ratePercent) })),
  total: toJsonNumber(r.total),
  pay_by: r.payBy,
  subject: r.subject,
  email_id: r.emailId ?? null,
  source: r.source,
  created_at: r.createdAt.toISOString(),
});

export const presentReminderPage = (p: { items: ReminderWithInvoice[]; nextCursor: string | null }) => ({
  reminders: p.items.map((i) => ({
    ...presentReminder(i.reminder),
    invoice_number: i.invoiceNumber,
    customer_id: i.customerId,
    customer_name: i.customerName ?? null,
  })),
  next_cursor: p.nextCursor,
});

export const presentProposal = (p: ProposalDoc) => ({
  invoice_id: p.invoiceId,
  number: p.number,
  customer_id: p.customerId,
  level: p.level,
  due_date: p.dueDate,
  open_amount: toJsonNumber(p.openAmount),
  proposed_on: p.proposedOn,
  reason: p.reason ?? null,
});

export const presentEmail = (e: EmailDoc) => ({
  id: e._id,
  status: e.status,
  to: e.to,
  cc: e.cc,
  bcc: e.bcc,
  subject: e.subject,
  attachments: e.attachmentNames,
  message_id: e.messageId ?? null,
  error: e.error ?? null,
  created_at: e.createdAt.toISOString(),
  sent_at: e.sentAt?.toISOString() ?? null,
});

/** The totals as the API shows them: JSON numbers, rounded to the cent. */
export function presentTotals(totals: InvoiceTotals) {
  return {
    net_amount: jsonNumber(totals.taxExclusiveTotal),
    tax_amount: jsonNumber(totals.vatTotal),
    gross_amount: jsonNumber(totals.taxInclusiveTotal),
    amount_due: jsonNumber(totals.amountDue),
    currency: 'EUR',
    vat_breakdown: totals.vatBreakdown.map((v) => ({
      vat_category: v.category,
      tax_rate: jsonNumber(toDecimal(v.rate).dividedBy(100).toFixed()),
      net_amount: jsonNumber(v.taxableAmount),
      tax_amount: jsonNumber(v.taxAmount),
    })),
  };
}

/** The body of GET /invoice/{id}/validate. */
export function presentValidation(result: ValidationResult) {
  return {
    valid: result.valid,
    errors: result.errors,
    warnings: result.warnings,
    checks: result.checks,
    vat_check: { status: result.vatStatus },
    vat_override_required: result.vatOverrideRequired,
  };
}

/** GET /invoice/reminder-settings: the settings in force, each text marked whether it is the default. */
export function presentReminderSettings({ settings: s, saved }: ReminderSettingsView) {
  const texts = (l: 'de' | 'en') =>
    Object.fromEntries(LEVELS.map((v) => [v, { ...s.texts[l][v], is_default: !saved?.texts?.[`${l}_${v}`] }])) as Record<
      1 | 2 | 3,
      { subject: string; body: string; is_default: boolean }
    >;
  return {
    mode: s.mode,
    interval_days: s.intervalDays,
    fees: s.fees.map((f) => toJsonNumber(f)),
    flat_fee_b2b: s.flatFeeB2B,
    pay_within_days: s.payWithinDays,
    texts: { de: texts('de'), en: texts('en') },
    placeholders: REMINDER_PLACEHOLDERS.map((p) => `{${p}}`),
  };
}

/** GET /invoice/email-texts: the texts in force per language, and the placeholders they may use. */
export function presentEmailTexts(t: EmailTextsView) {
  const one = (l: 'de' | 'en') => ({ ...t[l].template, is_default: t[l].isDefault });
  return { de: one('de'), en: one('en'), placeholders: PLACEHOLDERS.map((p) => `{${p}}`) };
}

/** A presigned download link (an invoice's PDF or XML, an attachment, a reminder's PDF). */
export const presentLink = (l: DownloadLink) => ({
  url: l.url,
  filename: l.filename,
  ...(l.contentType !== undefined ? { content_type: l.contentType } : {}),
  expires_in: l.expiresIn,
});

/** A test mode e-mail as GET /test-mails shows it (TestMail). */
export const presentTestMail = (m: TestMailDoc) => ({
  id: m._id,
  subject_ref: m.subjectRef,
  from: m.from,
  reply_to: m.replyTo ?? null,
  to: m.to,
  cc: m.cc,
  bcc: m.bcc,
  subject: m.subject,
  text: m.text,
  attachments: m.attachments.map((a) => ({ filename: a.filename, content_type: a.contentType })),
  captured_at: m.capturedAt.toISOString(),
});
