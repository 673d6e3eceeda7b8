import { z } from 'zod';
import { InboundContent } from '../api/inbound';
import { InvoiceSnapshot } from './snapshot';

const Dec = z.string().regex(/^-?\d+(\.\d+)?$/);
const DocumentFormat = z.enum(['PDF', 'ZUGFERD', 'XRECHNUNG', 'PEPPOL', 'FACTURAPA', 'FACTURAE']);
const StoredObject = z.object({ key: z.string(), filename: z.string(), contentType: z.string(), size: z.number().int() });
const VatStatus = z.enum(['valid', 'invalid', 'unavailable', 'pending', 'not_checked']);
const Plan = z.enum(['free', 'pro']);

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

/** Work for exactly one owner, on the commands direct exchange. */
export const commands = {
  /**
   * Sends one e-mail (the mail module: invoice-service today, a mail-service later without a contract
   * change). Attachments are object-storage keys; the outcome comes back as mail.sent / mail.failed.
   */
  'mail.send.v1': z.object({
    emailId: z.string(),
    /** Who asked, so the outcome reaches the right consumer (e.g. `invoice:42`). */
    subjectRef: z.string(),
    from: z.string(),
    replyTo: z.string().optional(),
    to: z.array(z.string()).min(1),
    cc: z.array(z.string()).default([]),
    bcc: z.array(z.string()).default([]),
    subject: z.string(),
    text: z.string(),
    attachments: z.array(z.object({ key: z.string(), filename: z.string(), contentType: z.string() })).default([]),
  }),
  /** Runs an accounting export job (export-service sends it to itself through its outbox). */
  'export.run-export.v1': z.object({ jobId: z.string() }),
  /**
   * Reads and validates a received e-invoice whose original is stored (inbound-service sends it to itself through its
   * outbox when it accepts the upload; the document's id is its job's id).
   */
  'inbound.process-document.v1': z.object({ inboundId: z.number().int() }),
  'document.render-invoice.v1': z.object({
    jobId: z.string(),
    invoiceId: z.number().int(),
    format: DocumentFormat,
    templateId: z.number().int(),
    snapshot: InvoiceSnapshot,
    /**
     * The invoice's attachments (bytes in object storage under the company's prefix), embedded where the
     * format allows: PDF/A-3 associated files (AFRelationship /Supplement), UBL AdditionalDocumentReference.
     */
    attachments: z
      .array(
        z.object({
          id: z.number().int(),
          key: z.string(),
          filename: z.string(),
          contentType: z.string(),
          size: z.number().int(),
          description: z.string().optional(),
        }),
      )
      .max(20)
      .optional(),
    /** The letterhead logo as the company had it at finalization (read from object storage by the renderer). */
    logo: z.object({ key: z.string(), contentType: z.enum(['image/png', 'image/jpeg']) }).optional(),
  }),
} as const;

/**
 * Questions that need an answer now (direct reply-to, with a timeout). Convention: a record that does not
 * exist (or belongs to another company) is an answer, `found: false`, never a thrown error; an error
 * answer means the question could not be answered.
 */
export const rpc = {
  'quota.reserve.v1': {
    request: z.object({ reservationId: z.string(), at: z.string().optional() }),
    response: z.object({ granted: z.boolean(), used: z.number().int(), limit: z.number().int(), reset_date: z.string(), plan: Plan }),
  },
  /** Sets the company's plan (operator command); a change is announced as company.plan-changed.v1. */
  'quota.set-plan.v1': {
    request: z.object({ plan: Plan }),
    response: z.object({ plan: Plan, previousPlan: Plan, changed: z.boolean(), version: z.number().int() }),
  },
  /**
   * Creates a company with its owner (operator command and the demo bootstrap). The envelope's companyId is the
   * id to create (`cmp_` + 24 hexadecimal characters from the caller, so a retried call creates nothing twice).
   * With plan pro and no `apiKey`, a new key (role owner) is generated; `apiKey` registers the given one instead.
   */
  'account.create-company.v1': {
    request: z.object({
      name: z.string().trim().min(1).max(200),
      ownerEmail: z.string().trim().toLowerCase().email().max(254),
      plan: Plan,
      apiKey: z
        .string()
        .regex(/^ak_live_[0-9a-f]{32}$/)
        .optional(),
    }),
    response: z.object({
      companyId: z.string(),
      created: z.boolean(),
      plan: Plan,
      apiKey: z.string().optional(),
      keyId: z.string().optional(),
    }),
  },
  /** Every company (operator command): id, name, plan, members and active keys. The envelope's companyId is `operator`. */
  'account.list-companies.v1': {
    request: z.object({ limit: z.number().int().min(1).max(1000).default(200) }),
    response: z.object({
      companies: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          plan: Plan,
          createdAt: z.string(),
          members: z.number().int(),
          activeKeys: z.number().int(),
        }),
      ),
    }),
  },
  /** The e-mail addresses of the company's active owners (webhook-service tells them about a disabled endpoint). */
  'account.company-owners.v1': {
    request: z.object({}),
    response: z.object({ found: z.boolean(), emails: z.array(z.string()) }),
  },
  /** The plan account-service recorded for a company (quota-service's fallback before its event arrived). */
  'account.company-plan.v1': {
    request: z.object({}),
    response: z.object({ found: z.boolean(), plan: Plan.optional() }),
  },
  /**
   * The company's payment terms as account-service (their owner) holds them now: customer-service asks when a
   * customer names a term its copy does not know yet (the term was created a moment ago and the event is on its way).
   */
  'account.payment-terms.v1': {
    request: z.object({}),
    response: z.object({
      found: z.boolean(),
      /** 0 while the company still has the default terms; grows with every change (as in company.payment-terms-changed.v1). */
      rev: z.number().int().optional(),
      terms: z.array(z.object({ id: z.number().int(), name: z.string(), days: z.number().int() })).optional(),
    }),
  },
  'account.seller-profile.v1': {
    request: z.object({}),
    response: z.object({
      found: z.boolean(),
      seller: InvoiceSnapshot.shape.seller.optional(),
      payment: InvoiceSnapshot.shape.payment.optional(),
      paymentTermDays: z.number().int().optional(),
      /** The company's payment terms (at most 50) and its default: the customer's term applies, else the default. */
      paymentTerms: z
        .array(
          z.object({
            id: z.number().int(),
            days: z.number().int(),
            discount: z.object({ percent: z.number(), days: z.number().int() }).optional(),
            textDe: z.string().optional(),
            textEn: z.string().optional(),
          }),
        )
        .optional(),
      defaultPaymentTermId: z.number().int().optional(),
      /** Kleinunternehmer (§ 19 UStG): no VAT on its invoices. */
      smallBusiness: z.boolean().optional(),
      /** The company's letterhead logo (already resized; bytes in object storage under the company's prefix). */
      logo: z.object({ key: z.string(), contentType: z.enum(['image/png', 'image/jpeg']) }).optional(),
      /** The company's default PDF template (a customer's own default wins). */
      defaultTemplateId: z.number().int().optional(),
      /** Which company fields are missing for an invoice (named by their API field). */
      missing: z.array(z.string()).optional(),
      numberPrefix: z.string().optional(),
    }),
  },
  'customer.payment-term-usage.v1': {
    request: z.object({ paymentTermId: z.number().int() }),
    response: z.object({ customers: z.number().int() }),
  },
  'customer.billing-snapshot.v1': {
    request: z.object({ customerId: z.number().int() }),
    response: z.object({
      found: z.boolean(),
      buyer: InvoiceSnapshot.shape.buyer.optional(),
      hasBillingAddress: z.boolean(),
      contactType: z.enum(['B2B', 'B2C']).optional(),
      language: z.enum(['de', 'en']).optional(),
      defaultTemplateId: z.number().int().optional(),
      paymentTermId: z.number().int().optional(),
      buyerReference: z.string().optional(),
      vatStatus: VatStatus,
      customerNumber: z.number().int().optional(),
    }),
  },
  'document.render-preview.v1': {
    request: z.object({
      format: DocumentFormat,
      templateId: z.number().int(),
      snapshot: InvoiceSnapshot,
      logo: z.object({ key: z.string(), contentType: z.enum(['image/png', 'image/jpeg']) }).optional(),
    }),
    response: z.object({ pdfBase64: z.string() }),
  },
  'document.presign.v1': {
    request: z.object({ key: z.string(), filename: z.string() }),
    response: z.object({ url: z.string(), expiresInSeconds: z.number().int() }),
  },
  'document.template-exists.v1': {
    request: z.object({ templateId: z.number().int() }),
    response: z.object({ exists: z.boolean() }),
  },
  /**
   * Renders a customer account statement PDF, stores it and answers a presigned link. The request is
   * the `AccountStatement` input of document-service's `renderStatementPdf` (amounts as decimal
   * strings, balance positive = the customer owes us) plus the template to render it with.
   */
  'document.render-statement.v1': {
    request: z.object({
      language: z.enum(['de', 'en']),
      currency: z.literal('EUR').optional(),
      company: InvoiceSnapshot.shape.seller,
      companyPayment: InvoiceSnapshot.shape.payment,
      customer: InvoiceSnapshot.shape.buyer.extend({ customerNumber: z.string().optional() }),
      statementDate: z.string().optional(),
      from: z.string(),
      to: z.string(),
      openingBalance: Dec,
      entries: z.array(
        z.object({
          date: z.string(),
          documentNumber: z.string(),
          type: z.enum(['invoice', 'credit_note', 'payment', 'discount', 'refund', 'adjustment', 'reminder_fee', 'interest']),
          debit: Dec.optional(),
          credit: Dec.optional(),
          balance: Dec,
        }),
      ),
      closingBalance: Dec,
      template: z.number().int().optional(),
      /** The company's letterhead logo, as on its invoices (bytes in object storage under the company's prefix). */
      logo: z.object({ key: z.string(), contentType: z.enum(['image/png', 'image/jpeg']) }).optional(),
    }),
    response: z.object({ url: z.string(), filename: z.string().optional(), expiresInSeconds: z.number().int().optional() }),
  },
  /**
   * Renders a received e-invoice (inbound-service's reading, our JSON vocabulary) as a PDF, stores it under `key` (below
   * the company's prefix) and answers the stored object. The view of a document that has no visual of its own (XRechnung).
   */
  'document.render-received.v1': {
    request: z.object({
      key: z.string(),
      language: z.enum(['de', 'en']),
      inboundId: z.number().int(),
      format: z.string(),
      profile: z.string().optional(),
      valid: z.boolean(),
      receivedAt: z.string(),
      documentType: z.enum(['INVOICE', 'CREDIT_NOTE']).optional(),
      content: InboundContent,
    }),
    response: StoredObject,
  },
  /**
   * Renders a reminder (payment reminder, overdue notice or final reminder) of an invoice as PDF/A, stores it under
   * `<company>/invoices/<invoice>/reminders/<reminder>-<level>.pdf` (the same request renders the same object again)
   * and answers where it is. Amounts are decimal strings; the figures are invoice-service's (domain/dunning.ts).
   */
  'document.render-reminder.v1': {
    request: z.object({
      invoiceId: z.number().int(),
      reminderId: z.number().int(),
      language: z.enum(['de', 'en']),
      company: InvoiceSnapshot.shape.seller,
      companyPayment: InvoiceSnapshot.shape.payment,
      customer: InvoiceSnapshot.shape.buyer.extend({ customerNumber: z.string().optional() }),
      level: z.number().int().min(1).max(3),
      title: z.string(),
      date: z.string(),
      text: z.string(),
      invoiceNumber: z.string(),
      invoiceDate: z.string(),
      dueDate: z.string(),
      invoiceTotal: Dec,
      openAmount: Dec,
      fees: Dec,
      flatFee: Dec,
      interest: Dec,
      interestPeriods: z.array(z.object({ from: z.string(), to: z.string(), days: z.number().int(), ratePercent: Dec })),
      total: Dec,
      payBy: z.string(),
      template: z.number().int().optional(),
      logo: z.object({ key: z.string(), contentType: z.enum(['image/png', 'image/jpeg']) }).optional(),
    }),
    response: z.object({ key: z.string(), filename: z.string(), size: z.number().int() }),
  },
} as const;

export const messages = { events, commands, rpc };
export type Messages = typeof messages;
