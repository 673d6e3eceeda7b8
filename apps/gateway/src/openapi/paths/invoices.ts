import { z } from 'zod';
import {
  CreditNoteCreate,
  CreatedInvoice,
  CreatedJob,
  DownloadLink,
  Invoice,
  InvoiceCreate,
  InvoiceDraftCheck,
  InvoiceListQuery,
  InvoicePage,
  InvoiceUpdate,
  Job,
  JobRequest,
  StatusChanged,
  StatusUpdate,
  TaxTreatmentLabel,
  Validation,
  LocaleQuery,
  JobWaitQuery,
} from '@inv/contracts';
import {
  body,
  bodyErrors,
  commonErrors,
  conflict,
  intId,
  json,
  jsonExample,
  notFound,
  paginationHeaders,
  queryParams,
  quotaProblem,
  strId,
  unprocessable,
  type Operation,
} from '../builder';
import { attachmentPaths } from './invoice-attachments';
import { emailPaths } from './invoice-email';
import { positionPaths } from './invoice-positions';

const tags = ['Invoices'];
const id = intId('id', 'invoice id');
const notDraft = () => conflict('only drafts can be changed (INVOICE_NOT_DRAFT) or changed meanwhile (CONCURRENT_MODIFICATION)');

export function invoicePaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>, t = tags): Operation => ({ tags: t, ...o });
  return {
    '/invoice/': {
      get: op({
        operationId: 'listInvoices',
        summary: 'List invoices',
        description:
          'Filters combine with AND; unknown values answer 400 naming the parameter. The body keeps {invoices, total, page, limit}; X-Total-Count and Link headers carry the same. `q` searches invoice numbers and customer names (the text as written, case-insensitive). Page by page number, or follow next_cursor (cursor=...) for deep pages at the cost of the first.',
        parameters: queryParams(InvoiceListQuery),
        responses: { 200: json(InvoicePage, 'a page of invoices', paginationHeaders), ...commonErrors() },
      }),
      post: op({
        operationId: 'createInvoice',
        summary: 'Create a draft invoice',
        description:
          "The invoice number is taken at creation from the company's invoice sequence (GET /numbering/), gaplessly and uniquely even under concurrent creation, " +
          'unless invoice_number is given (unique per company). Drafts are never deleted: a draft that is not issued is cancelled and keeps its number, so the record of numbers has no gaps.',
        requestBody: body(InvoiceCreate, { customer_id: 1, invoice_format: 'ZUGFERD', meta: { order: 'PO-4711' } }),
        responses: {
          201: json(CreatedInvoice, 'created'),
          ...conflict('the invoice_number is taken (DUPLICATE_INVOICE_NUMBER)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/validate': {
      post: op({
        operationId: 'validateInvoiceDraft',
        summary: 'Validate an invoice before creating it',
        description:
          'The answer GET /invoice/{id}/validate would give for the draft that POST /invoice/ and POST /invoice/{id}/positions would make of this body ' +
          "(the customer's buyer reference and template as defaults, products filling positions): whether finalization would accept it, and why not. " +
          'Nothing is created: no draft, no number, no quota. Recurring invoices check their template with it when they are saved.',
        requestBody: body(InvoiceDraftCheck, {
          customer_id: 42,
          invoice_format: 'XRECHNUNG',
          benefit_period_start: '2026-12-01',
          benefit_period_end: '2026-12-31',
          positions: [{ title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 }],
        }),
        responses: {
          200: jsonExample(Validation, {
            valid: false,
            errors: [
              { field: 'buyerReference', rule: 'BR-DE-15', message: 'XRechnung needs the buyer reference (Leitweg-ID for public buyers).' },
            ],
            warnings: [],
            checks: ['customer', 'billing_address', 'positions', 'seller_profile', 'format_requirements', 'vat_id'],
            vat_check: { status: 'valid' },
            vat_override_required: false,
          }),
          ...unprocessable('positions with amounts outside the bounds (INVOICE_NOT_VALID)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}': {
      parameters: [id],
      get: op({
        operationId: 'getInvoice',
        summary: 'Get an invoice with positions and totals',
        responses: { 200: json(Invoice), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updateInvoice',
        summary: 'Update a draft invoice',
        description: 'Only the fields sent change.',
        requestBody: body(InvoiceUpdate),
        responses: { 200: json(Invoice.extend({ message: z.string() })), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
    },
    ...positionPaths(op),
    '/invoice/{id}/validate': {
      parameters: [id],
      get: op({
        operationId: 'validateInvoice',
        summary: 'Validate an invoice',
        description: 'Whether the invoice can be finalized, and why not.',
        responses: {
          200: json(Validation),
          ...notFound(),
          ...unprocessable('positions with amounts outside the bounds (INVOICE_NOT_VALID)'),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/job': {
      parameters: [id],
      post: op({
        operationId: 'finalizeInvoice',
        summary: 'Finalize an invoice',
        description:
          'Enqueues the generation of the PDF and the e-invoice. ' +
          'Validation must pass. A customer VAT ID that is not confirmed needs vat_override_confirmed: true (422 VAT_OVERRIDE_REQUIRED otherwise). Counts against the monthly quota (402). Poll the job until finished or failed.',
        requestBody: body(JobRequest, { task: 'process_invoice_flag_invoice_send_job' }),
        responses: {
          201: json(CreatedJob, 'job queued'),
          ...quotaProblem(),
          ...notFound(),
          ...conflict(
            'not a draft, already being finalized (JOB_IN_PROGRESS), or a credit note beyond what its invoice has left (CREDIT_EXCEEDS_INVOICE)',
          ),
          ...unprocessable('not valid (INVOICE_NOT_VALID, errors) or VAT ID not confirmed (VAT_OVERRIDE_REQUIRED, vat_check)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/job/{job_id}': {
      parameters: [id, strId('job_id', 'job id (uuid)')],
      get: op({
        operationId: 'getInvoiceJob',
        summary: 'Poll a finalization job',
        description:
          'Poll every 2 s with backoff, or long-poll: with `wait=N` the answer is held up to N seconds (at most 25) until the status changes.',
        parameters: queryParams(JobWaitQuery),
        responses: { 200: json(Job), ...notFound(), ...commonErrors() },
      }),
    },
    '/invoice/{id}/status': {
      parameters: [id],
      put: op({
        operationId: 'setInvoiceStatus',
        summary: 'Mark a finalized invoice SENT or PAID',
        description:
          'PAID is a shortcut: one payment of the whole open amount (source `status`, no Skonto), listed under GET /invoice/{id}/payments ' +
          'and reversible like any payment; paid_date is its date. Repeating the status the invoice has changes nothing.',
        requestBody: body(StatusUpdate, { status: 'PAID', paid_date: '2026-11-30', payment_method: 'BANK_TRANSFER' }),
        responses: {
          200: json(StatusChanged),
          ...notFound(),
          ...conflict('transition not allowed (INVALID_STATUS_TRANSITION, INVOICE_NOT_FINALIZED)'),
          // PAID records a payment: its date must not be before the invoice date (400 VALIDATION_ERROR)
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/cancel': {
      parameters: [id],
      post: op({
        operationId: 'cancelInvoice',
        summary: 'Cancel a draft invoice',
        description: 'Irreversible; a finalized invoice gets a credit note instead.',
        responses: { 200: json(StatusChanged), ...notFound(), ...conflict('finalized (INVOICE_ALREADY_FINALIZED)'), ...commonErrors() },
      }),
    },
    '/invoice/{id}/duplicate': {
      parameters: [id],
      post: op({
        operationId: 'duplicateInvoice',
        summary: 'Copy an invoice into a new draft',
        responses: { 201: json(CreatedInvoice, 'created'), ...notFound(), ...commonErrors() },
      }),
    },
    '/invoice/{id}/credit-note': {
      parameters: [id],
      post: op({
        operationId: 'createCreditNote',
        summary: 'Create a credit note',
        description:
          'A credit note (type 381) for a finalized invoice, as a new draft. ' +
          'Finalize it like an invoice; it states that the amount is refunded or offset. No body: a full credit note; ' +
          '`positions`: a partial one by position and quantity; `amount`: a partial one of a gross amount. ' +
          'All credit notes of an invoice together never exceed its gross total: the amount is reserved atomically at finalization, ' +
          'and beyond it the answer (here or at POST /invoice/{id}/job) is 409 CREDIT_EXCEEDS_INVOICE with remaining_gross.',
        requestBody: { ...body(CreditNoteCreate, { positions: [{ position_id: 17, quantity: 2 }, { position_id: 18 }] }), required: false },
        responses: {
          201: json(CreatedInvoice, 'created'),
          ...notFound(),
          ...conflict(
            'not finalized, itself a credit note, or more than the invoice has left to credit (CREDIT_EXCEEDS_INVOICE; remaining_gross)',
          ),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/pdf-link': {
      parameters: [id],
      get: op({
        operationId: 'getInvoicePdfLink',
        summary: 'Get the PDF link',
        description: 'A presigned link to the PDF, valid 5 minutes.',
        responses: { 200: json(DownloadLink), ...notFound(), ...conflict('not finalized yet'), ...commonErrors() },
      }),
    },
    '/invoice/{id}/xml-link': {
      parameters: [id],
      get: op({
        operationId: 'getInvoiceXmlLink',
        summary: 'Get the e-invoice XML link',
        description: 'A presigned link to the e-invoice XML, valid 5 minutes.',
        responses: { 200: json(DownloadLink), ...notFound(), ...conflict('not finalized yet, or a PDF-only invoice'), ...commonErrors() },
      }),
    },
    '/invoice/{id}/preview': {
      parameters: [id],
      get: op({
        operationId: 'previewInvoice',
        summary: 'Preview a draft as PDF',
        description: 'The raw PDF bytes, marked DRAFT; does not count against the quota.',
        responses: {
          200: { description: 'PDF', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } },
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/tax-treatments': {
      get: op({
        operationId: 'listTaxTreatments',
        summary: 'List tax treatments',
        parameters: queryParams(LocaleQuery),
        responses: { 200: json(z.array(TaxTreatmentLabel)), ...commonErrors() },
      }),
    },
    ...emailPaths(op),
    ...attachmentPaths(op),
  };
}
