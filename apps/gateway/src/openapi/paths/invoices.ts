import { z } from 'zod';
import {
  Attachment,
  CreditNoteCreate,
  AttachmentLink,
  AttachmentUpload,
  CreatedInvoice,
  CreatedJob,
  DownloadLink,
  EmailRecord,
  EmailTexts,
  EmailTextsUpdate,
  Invoice,
  InvoiceCreate,
  InvoiceDraftCheck,
  InvoiceListQuery,
  InvoicePage,
  InvoiceUpdate,
  Job,
  JobRequest,
  SendEmailRequest,
  MessageBody,
  PositionAdded,
  PositionUpdated,
  PositionCreateInput,
  PositionReorder,
  PositionUpdate,
  Position,
  Positions,
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
  problem,
  queryParams,
  quotaProblem,
  requestSchema,
  strId,
  unprocessable,
  type Operation,
} from '../builder';

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
          'Filters combine with AND; unknown values answer 400 naming the parameter. The body keeps {invoices, total, page, limit}; X-Total-Count and Link headers carry the same.',
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
    '/invoice/{id}/positions': {
      parameters: [id],
      get: op({
        operationId: 'listPositions',
        summary: 'List the positions of an invoice',
        responses: { 200: json(Positions), ...notFound(), ...commonErrors() },
      }),
      post: op({
        operationId: 'addPosition',
        summary: 'Add a position',
        description:
          'The invoice totals are recalculated. ' +
          'At most 1,000 positions per invoice. single_net_amount may differ from quantity x unit_net_amount (rounded half up to the cent) by at most 0.01; the service value wins. ' +
          'With product_id the product fills title, description, unit_id, unit_net_amount, tax_rate and tax_treatment_id where the request leaves them out; the position keeps a copy (later product edits do not change it). ' +
          'An unknown product_id answers 400, an inactive product 409 PRODUCT_INACTIVE.',
        requestBody: body(PositionCreateInput, { product_id: 12, quantity: 7.5 }),
        responses: {
          201: json(PositionAdded, 'created'),
          ...notFound(),
          ...conflict('the product is inactive (PRODUCT_INACTIVE) or the invoice is no draft (INVOICE_NOT_DRAFT)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/positions/reorder': {
      parameters: [id],
      put: op({
        operationId: 'reorderPositions',
        summary: 'Reorder positions',
        description: 'The body names every position id once.',
        requestBody: body(PositionReorder, [3, 1, 2]),
        responses: { 200: json(MessageBody), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/invoice/{id}/position/{position_id}': {
      parameters: [id, intId('position_id', 'position id')],
      get: op({
        operationId: 'getPosition',
        summary: 'Get a position',
        responses: { 200: json(Position), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updatePosition',
        summary: 'Update a position',
        description: 'Only the fields sent change.',
        requestBody: body(PositionUpdate),
        responses: { 200: json(PositionUpdated), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deletePosition',
        summary: 'Delete a position',
        responses: { 200: json(MessageBody), ...notFound(), ...notDraft(), ...commonErrors() },
      }),
    },
    // the plural spelling, as POST /invoice/{id}/positions has it: the same operations
    '/invoice/{id}/positions/{position_id}': {
      parameters: [id, intId('position_id', 'position id')],
      get: op({
        operationId: 'getPositionPlural',
        summary: 'Get a position (alias)',
        description: 'Alias of `/invoice/{id}/position/{position_id}`.',
        responses: { 200: json(Position), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updatePositionPlural',
        summary: 'Update a position (alias)',
        description: 'Alias of `/invoice/{id}/position/{position_id}`.',
        requestBody: body(PositionUpdate),
        responses: { 200: json(PositionUpdated), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deletePositionPlural',
        summary: 'Delete a position (alias)',
        description: 'Alias of `/invoice/{id}/position/{position_id}`.',
        responses: { 200: json(MessageBody), ...notFound(), ...notDraft(), ...commonErrors() },
      }),
    },
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
    '/invoice/{id}/send_email': {
      parameters: [id],
      post: op({
        operationId: 'sendInvoiceEmail',
        summary: 'Send a finalized invoice by e-mail',
        description:
          'Queues the e-mail (202) and sends it through SMTP in the background: the PDF (attach_pdf, default true), the XML (attach_xml, default for XML formats) and chosen attachments. ' +
          'Subject and text come from the German or English template (invoice number, total, due date) unless given. Temporary SMTP failures are retried with backoff; ' +
          'the outcome is in GET /invoice/{id}/emails. An OPEN invoice becomes SENT when the server accepts the e-mail. At most 10 recipients and 20 MiB. ' +
          "Recipients must be the customer's addresses (its e-mail, EM electronic address or PEC) or the seller's contact address. " +
          'At most 10 sends per invoice and 200 messages per company (one per recipient) per UTC day: 429 EMAIL_LIMIT_EXCEEDED with Retry-After beyond.',
        requestBody: body(SendEmailRequest, { to: ['ap@buyer.example'], attachment_ids: [12] }),
        responses: {
          202: json(z.object({ message: z.string(), email_id: z.string() }), 'queued (Location: the e-mail list)'),
          ...notFound(),
          ...conflict('not finalized (INVOICE_NOT_SENDABLE)'),
          ...bodyErrors(),
          413: problem('attachments over 20 MiB (EMAIL_TOO_LARGE), or a body over 1 MiB (PAYLOAD_TOO_LARGE)'),
          ...commonErrors(),
          429: problem(
            'a daily e-mail limit of the invoice or the company (EMAIL_LIMIT_EXCEEDED; `scope`, `limit`, `retry_after`), or the rate limit',
          ),
        },
      }),
    },
    '/invoice/email-texts': {
      get: op({
        operationId: 'getEmailTexts',
        summary: 'Get the e-mail texts',
        description: "The company's invoice e-mail texts (German and English) and the placeholders.",
        responses: { 200: json(EmailTexts), ...commonErrors() },
      }),
      put: op({
        operationId: 'updateEmailTexts',
        summary: 'Replace the e-mail texts',
        description: 'Per language; unknown placeholders answer 400.',
        requestBody: body(EmailTextsUpdate, {
          de: {
            subject: '{document} {number} von {seller}',
            body: 'Guten Tag,\n\nanbei unsere {document} {number} über {total}{due_date}.\n\n{seller}',
          },
        }),
        responses: { 200: json(EmailTexts.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'resetEmailTexts',
        summary: 'Reset the e-mail texts',
        description: 'Back to the default e-mail texts.',
        responses: { 200: json(EmailTexts.extend({ message: z.string() })), ...commonErrors() },
      }),
    },
    '/invoice/{id}/emails': {
      parameters: [id],
      get: op({
        operationId: 'listInvoiceEmails',
        summary: 'List sent e-mails',
        description: 'E-mails sent for the invoice, newest first, with status and the SMTP error.',
        responses: { 200: json(z.object({ emails: z.array(EmailRecord) })), ...notFound(), ...commonErrors() },
      }),
    },
    '/invoice/{id}/attachments': {
      parameters: [id],
      get: op({
        operationId: 'listInvoiceAttachments',
        summary: 'List attachments',
        responses: { 200: json(z.object({ attachments: z.array(Attachment) })), ...notFound(), ...commonErrors() },
      }),
      post: op({
        operationId: 'addInvoiceAttachment',
        summary: 'Upload an attachment',
        description:
          'To a draft, as multipart/form-data with `file` and `description`. ' +
          'PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF, typed by content (a renamed executable or an HTML page answers 415 naming what was found). ' +
          'At most 5 MiB per file, cut while streaming (413 ATTACHMENT_TOO_LARGE, nothing stored); at most 20 attachments (409 ATTACHMENT_LIMIT_REACHED) and 25 MiB per invoice (413 ATTACHMENT_QUOTA_EXCEEDED). ' +
          'Finalization freezes them and embeds them in the e-invoice where the format allows.',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: requestSchema(AttachmentUpload) } } },
        responses: {
          201: json(Attachment.extend({ message: z.string() }), 'stored (Location: the attachment)'),
          ...notFound(),
          ...conflict('not a draft (INVOICE_NOT_DRAFT) or 20 attachments already (ATTACHMENT_LIMIT_REACHED)'),
          413: problem('over 5 MiB (ATTACHMENT_TOO_LARGE) or over 25 MiB per invoice (ATTACHMENT_QUOTA_EXCEEDED)'),
          415: problem('not an accepted type (UNSUPPORTED_ATTACHMENT_TYPE)'),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/attachments/{attachment_id}': {
      parameters: [
        id,
        { name: 'attachment_id', in: 'path', required: true, description: 'attachment id', schema: { type: 'integer', minimum: 1 } },
      ],
      get: op({
        operationId: 'getInvoiceAttachment',
        summary: 'Get an attachment link',
        description: 'A presigned link to the attachment.',
        responses: { 200: json(AttachmentLink), ...notFound(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deleteInvoiceAttachment',
        summary: 'Delete an attachment of a draft',
        responses: { 200: json(MessageBody), ...notFound(), ...conflict('not a draft (INVOICE_NOT_DRAFT)'), ...commonErrors() },
      }),
    },
  };
}
