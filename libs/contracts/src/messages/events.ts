import { z } from 'zod';
import { Dec, Plan, StoredObject } from './message-fields';
import { InvoiceSnapshot } from './snapshot';

/** Facts, fanned out on the events topic exchange. Routing key = type. */
export const events = {
  'company.created.v1': z.object({ name: z.string(), plan: Plan }),
  /**
   * quota-service (the owner of plans) changed the company's plan. `version` grows with every change of the
   * company's plan, so a consumer can ignore an older announcement delivered after a newer one.
   */
  'company.plan-changed.v1': z.object({ plan: Plan, previousPlan: Plan.optional(), version: z.number().int().optional() }),
  /** The company changed its profile or bank accounts (for the audit log; the fields, never their values). */
  'company.profile-changed.v1': z.object({ fields: z.array(z.string()) }),
  /** The company's payment terms as they are now (whole list; `rev` orders the announcements). */
  'company.payment-terms-changed.v1': z.object({
    rev: z.number().int(),
    terms: z.array(z.object({ id: z.number().int(), name: z.string(), days: z.number().int() })),
    changed: z.object({ id: z.number().int(), action: z.enum(['created', 'updated', 'deleted']) }).optional(),
  }),
  /** The company's own VAT ID changed: vat-service checks it at VIES as it does customers' (vat.checked.v1 without customerId). */
  'company.vat-id-changed.v1': z.object({ vatId: z.string(), forceRefresh: z.boolean().optional() }),
  /** API keys of the company (for the audit log; never the key, only its id, name, prefix and role). */
  'api-key.created.v1': z.object({ keyId: z.string(), name: z.string(), prefix: z.string(), role: z.string() }),
  'api-key.revoked.v1': z.object({ keyId: z.string(), reason: z.enum(['revoked', 'plan_downgrade']) }),
  /** Members of the company (for the audit log). */
  'member.invited.v1': z.object({ memberId: z.string(), role: z.string() }),
  'member.joined.v1': z.object({ memberId: z.string() }),
  'member.role-changed.v1': z.object({ memberId: z.string(), role: z.string(), previousRole: z.string() }),
  'member.removed.v1': z.object({ memberId: z.string(), role: z.string() }),
  /** A member set a new password with a reset link (every session of the member ended). */
  'member.password-reset.v1': z.object({ memberId: z.string() }),
  /** A product was created, changed or deleted (for the audit log: the fields, never their values). */
  'product.changed.v1': z.object({
    productId: z.number().int(),
    action: z.enum(['created', 'updated', 'deleted']),
    fields: z.array(z.string()),
  }),
  /** A numbering sequence's pattern, reset period or next value was changed. */
  'numbering.changed.v1': z.object({ documentType: z.enum(['invoice', 'credit_note']), fields: z.array(z.string()) }),
  /** A customer was created or changed (for the audit log: the API field names, never their values). */
  'customer.changed.v1': z.object({
    customerId: z.number().int(),
    action: z.enum(['created', 'updated', 'address_added', 'address_updated', 'address_deleted']),
    addressId: z.number().int().optional(),
    fields: z.array(z.string()),
  }),
  /** A draft invoice or its positions changed (for the audit log: the API field names, never their values). */
  'invoice.changed.v1': z.object({
    invoiceId: z.number().int(),
    action: z.enum([
      'created',
      'updated',
      'cancelled',
      'position_added',
      'position_updated',
      'position_deleted',
      'positions_reordered',
      'attachment_added',
      'attachment_deleted',
    ]),
    positionId: z.number().int().optional(),
    attachmentId: z.number().int().optional(),
    fields: z.array(z.string()),
  }),
  /** Accounting export: a job started, the mappings or the configuration changed (for the audit log: field names only). */
  'export.changed.v1': z.object({
    action: z.enum(['started', 'mappings_saved', 'mappings_reset', 'config_updated']),
    jobId: z.string().optional(),
    fields: z.array(z.string()),
  }),
  'customer.vat-id-changed.v1': z.object({
    customerId: z.number().int(),
    vatId: z.string(),
    /** Asked for by GET /customer/{id}/vat-check: check again at VIES instead of answering from the cache. */
    forceRefresh: z.boolean().optional(),
  }),
  'vat.checked.v1': z.object({
    customerId: z.number().int().optional(),
    vatId: z.string(),
    status: z.enum(['valid', 'invalid', 'unavailable']),
    checkedAt: z.string(),
    requestDate: z.string().optional(),
    name: z.string().optional(),
    address: z.string().optional(),
    consultationNumber: z.string().optional(),
    fault: z.string().optional(),
  }),
  'document.render-started.v1': z.object({ jobId: z.string(), invoiceId: z.number().int() }),
  'document.rendered.v1': z.object({
    jobId: z.string(),
    invoiceId: z.number().int(),
    /** When the renderer received the command (render-started is sent only for a slow render). */
    startedAt: z.string().datetime().optional(),
    pdf: StoredObject,
    xml: StoredObject.optional(),
  }),
  'document.render-failed.v1': z.object({
    jobId: z.string(),
    invoiceId: z.number().int(),
    startedAt: z.string().datetime().optional(),
    reason: z.string(),
  }),
  'invoice.finalized.v1': z.object({
    invoiceId: z.number().int(),
    number: z.string(),
    typeCode: z.enum(['380', '381']),
    customerId: z.number().int(),
    invoiceDate: z.string(),
    dueDate: z.string().optional(),
    currency: z.string(),
    totalNet: Dec,
    totalVat: Dec,
    totalGross: Dec,
    reservationId: z.string(),
    // Added for the accounting export's read model (optional: events published before carry none of them).
    customerNumber: z.number().int().optional(),
    buyer: InvoiceSnapshot.shape.buyer.optional(),
    /** Net and VAT per VAT category, rate and tax treatment (EN 16931 rounding: VAT per category to the cent). */
    vatBreakdown: z.array(z.object({ category: z.string(), rate: Dec, treatment: z.string(), net: Dec, vat: Dec })).optional(),
    /** Date of supply (Leistungsdatum): the benefit period's end, or the delivery date. */
    serviceDate: z.string().optional(),
    precedingInvoiceNumber: z.string().optional(),
    pdf: StoredObject.optional(),
  }),
  'mail.sent.v1': z.object({
    emailId: z.string(),
    subjectRef: z.string(),
    messageId: z.string(),
    accepted: z.array(z.string()),
    response: z.string().optional(),
  }),
  'mail.failed.v1': z.object({
    emailId: z.string(),
    subjectRef: z.string(),
    reason: z.string(),
    permanent: z.boolean(),
    smtpCode: z.number().int().optional(),
    /**
     * The mail module stopped after the complete message went to the SMTP server and before its answer: it may have
     * been delivered; it is not sent again (at most once). Absent: a plain failure.
     */
    unconfirmed: z.boolean().optional(),
  }),
  'invoice.finalize-failed.v1': z.object({ invoiceId: z.number().int(), jobId: z.string(), reservationId: z.string(), reason: z.string() }),
  'invoice.status-changed.v1': z.object({
    invoiceId: z.number().int(),
    customerId: z.number().int(),
    number: z.string().optional(),
    status: z.enum(['SENT', 'PAID', 'CANCELLED']),
    paidDate: z.string().optional(),
    totalGross: Dec.optional(),
    /**
     * PAID only: the document was settled by a credit note, not by money. An invoice whose open amount a finalized
     * credit note (381) brought to zero, or a credit note applied in full to its invoice. Consumers book no payment
     * (or refund) for this PAID; payments recorded on the document still come as invoice.payment-recorded.v1.
     * Absent: an ordinary PAID (without payment events it stands for one payment of the gross, older data).
     */
    settledByCredit: z.boolean().optional(),
  }),
  /**
   * A payment was recorded on an invoice (by hand, by the PAID shortcut, or confirmed from a bank statement). Amounts are
   * positive decimal strings; `discount` is the Skonto granted with it (the open amount it closed beyond `amount`).
   * `openAmount` is what is still owed after it; `paidInFull` when that reached zero (the invoice became PAID).
   */
  'invoice.payment-recorded.v1': z.object({
    invoiceId: z.number().int(),
    customerId: z.number().int(),
    number: z.string(),
    typeCode: z.enum(['380', '381']).optional(),
    paymentId: z.number().int(),
    amount: Dec,
    discount: Dec.optional(),
    date: z.string(),
    method: z.string().optional(),
    reference: z.string().optional(),
    source: z.enum(['manual', 'status', 'bank_statement']),
    openAmount: Dec,
    paidInFull: z.boolean(),
    currency: z.string().optional(),
  }),
  /** A recorded payment was reversed (only while it is not exported); the invoice is open again by `amount` + `discount`. */
  'invoice.payment-reversed.v1': z.object({
    invoiceId: z.number().int(),
    customerId: z.number().int(),
    number: z.string(),
    paymentId: z.number().int(),
    amount: Dec,
    discount: Dec.optional(),
    date: z.string(),
    reversedAt: z.string(),
    openAmount: Dec,
  }),
  /** export-service put these payments into a DATEV export: they can no longer be reversed (invoice-service marks them). */
  'export.payments-exported.v1': z.object({ paymentIds: z.array(z.number().int()), jobId: z.string() }),
  /** An invoice passed its due date unpaid (once per invoice and due date; announced by the daily reminder run). */
  'invoice.overdue.v1': z.object({
    invoiceId: z.number().int(),
    customerId: z.number().int(),
    number: z.string(),
    dueDate: z.string(),
    openAmount: Dec,
  }),
  /** A reminder (level 1 payment reminder, 2 overdue notice, 3 final reminder) was issued for an invoice, and whether it was e-mailed. */
  'invoice.reminder-issued.v1': z.object({
    invoiceId: z.number().int(),
    customerId: z.number().int(),
    number: z.string(),
    reminderId: z.number().int(),
    level: z.number().int().min(1).max(3),
    date: z.string(),
    fee: Dec,
    interest: Dec,
    openAmount: Dec,
    emailed: z.boolean(),
    /** The € 40 flat fee of § 288 (5) BGB charged with this reminder (absent or 0.00: none); a debit like `fee`. */
    flatFee: Dec.optional(),
  }),
  /** A bank statement (camt.053) was imported: how many credits it held and how many were matched to open invoices. */
  'bank-statement.imported.v1': z.object({
    statementId: z.number().int(),
    credits: z.number().int(),
    proposals: z.number().int(),
  }),
  /**
   * inbound-service received and read a supplier's e-invoice (for the DATEV supplier bookings and webhooks). Amounts as
   * the document states them; `vatBreakdown` per category and rate.
   */
  'inbound.received.v1': z.object({
    inboundId: z.number().int(),
    format: z.string(),
    valid: z.boolean(),
    number: z.string().optional(),
    issueDate: z.string().optional(),
    typeCode: z.string().optional(),
    currency: z.string().optional(),
    supplierId: z.number().int().optional(),
    sellerName: z.string().optional(),
    sellerVatId: z.string().optional(),
    totalNet: Dec.optional(),
    totalVat: Dec.optional(),
    totalGross: Dec.optional(),
    vatBreakdown: z.array(z.object({ category: z.string(), rate: Dec, net: Dec, vat: Dec })).optional(),
    original: StoredObject.optional(),
    /** BT-6 and BT-111: the VAT total in the VAT accounting currency, when the document states one beside its own. */
    taxCurrency: z.string().optional(),
    totalVatTaxCurrency: Dec.optional(),
    /** BT-73/74, the invoicing period of the whole document. */
    servicePeriod: z.object({ start: z.string().optional(), end: z.string().optional() }).optional(),
    /** An earlier received document of the same supplier with the same number: this one is not booked again. */
    duplicateOf: z.number().int().optional(),
  }),
  /** A received e-invoice was deleted (it had not been exported). */
  'inbound.deleted.v1': z.object({ inboundId: z.number().int() }),
  /**
   * DELETE /test-data (docs/test-mode.md): a test twin's data is to be removed. account-service deletes its own part and
   * announces this in the same commit; every other service that keeps data deletes the twin's documents (and stored
   * files, `test~<company>/…`) when it arrives (libs/runtime, the `test-data-reset` queue). Only ever published for a test twin's id.
   */
  'test-data.reset-requested.v1': z.object({ requestedAt: z.string() }),
  /**
   * A recurring invoice's run for one period ended: the invoice it issued (`invoiceId`) and how far it got, or the schedule
   * paused (`pausedReason`: the plan's quota, the template refused by invoice-service, or its finalization refused or failed). Once per schedule and period
   * (a pause and the later completion of the same run are two announcements with their own ids).
   */
  'recurring-invoice.run-finished.v1': z.object({
    recurringId: z.number().int(),
    periodStart: z.string(),
    periodEnd: z.string(),
    invoiceId: z.number().int().nullable(),
    outcome: z.enum(['running', 'draft_created', 'finalized', 'sent', 'quota_exceeded', 'finalize_failed', 'failed']),
    pausedReason: z.enum(['quota_exceeded', 'invoice_rejected', 'finalize_failed']).optional(),
    error: z.string().optional(),
  }),
  /**
   * A recurring invoice (schedule) was created, changed, paused, resumed or deleted by a user (for the audit log: the
   * API field names, never their values). A pause by a run (quota, refused template) is recurring-invoice.run-finished.v1.
   */
  'recurring-invoice.changed.v1': z.object({
    recurringId: z.number().int(),
    action: z.enum(['created', 'updated', 'paused', 'resumed', 'deleted']),
    fields: z.array(z.string()),
  }),
  /** A supplier of the register received e-invoices are matched against was created, replaced or deleted (field names only). */
  'supplier.changed.v1': z.object({
    supplierId: z.number().int(),
    action: z.enum(['created', 'updated', 'deleted']),
    fields: z.array(z.string()),
  }),
  /** A webhook endpoint was created, changed, deleted, its secret rotated, or disabled by delivery (for the audit log: field names only). */
  'webhook-endpoint.changed.v1': z.object({
    endpointId: z.string(),
    action: z.enum(['created', 'updated', 'deleted', 'secret_rotated', 'disabled']),
    fields: z.array(z.string()),
  }),
  /**
   * quota-service refused a finalization because the month's limit is reached (once per company and month: the
   * first refusal announces it).
   */
  'quota.limit-reached.v1': z.object({ month: z.string(), limit: z.number().int(), used: z.number().int(), plan: Plan }),
  /** An accounting export job finished (its downloads are recorded) or failed. */
  'export.finished.v1': z.object({ jobId: z.string(), downloadIds: z.array(z.number().int()).optional() }),
  'export.failed.v1': z.object({ jobId: z.string(), reason: z.string() }),
} as const;
