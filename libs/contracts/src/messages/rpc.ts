import { z } from 'zod';
import { InboundContent } from '../api/inbound';
import { Dec, DocumentFormat, Plan, StoredObject, VatStatus } from './message-fields';
import { InvoiceSnapshot } from './snapshot';

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
