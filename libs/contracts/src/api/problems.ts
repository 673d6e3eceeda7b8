import { z } from 'zod';

/**
 * Every `error_code` the API answers with, and what it means. The OpenAPI document lists them as an enum
 * and as the error reference; a test fails when a service uses a code that is not listed here.
 */
export const ERROR_CODES = {
  WEBHOOK_URL_NOT_ALLOWED: [
    400,
    'The webhook URL is not allowed: not https (in production), or its host resolves to a private, loopback, link-local, shared or metadata address.',
  ],
  VALIDATION_ERROR: [400, 'A path parameter, query parameter or body field is invalid; `errors` names each one (`path`, `in`, `message`).'],
  UNKNOWN_FIELD: [
    400,
    'The body has a field its contract does not know (nested too); `errors` names each one (`path`, `in: body`) with "did you mean …?" where a known field is close, then any other invalid field. Nothing is stored.',
  ],
  MALFORMED_JSON: [400, 'The body is not valid JSON.'],
  MALFORMED_PATH: [400, 'The path is not valid percent-encoding.'],
  MALFORMED_REQUEST: [
    400,
    'The request is not valid HTTP: raw (not percent-encoded) non-ASCII characters or spaces in the path or query string, or a broken header line.',
  ],
  NESTING_TOO_DEEP: [400, 'The JSON body is nested deeper than 64 levels.'],
  XML_NOT_WELL_FORMED: [
    400,
    'The received e-invoice or bank statement is not well-formed XML (or empty); `detail` says where the parser stopped.',
  ],
  XML_DTD_FORBIDDEN: [
    400,
    'The received XML (e-invoice or bank statement) has a document type declaration (DTD) or entity declaration; neither has one, and entities are never resolved.',
  ],
  XML_ENCODING_UNSUPPORTED: [400, 'The received XML (e-invoice or bank statement) is not UTF-8 (or declares another encoding).'],
  XML_TOO_DEEP: [400, 'The received XML nests elements deeper than 128 levels (bank statements: 64).'],
  XML_TOO_COMPLEX: [
    400,
    'The received e-invoice XML exceeds a bound of the work one document may cost: more than 50,000 elements or 50,000 attributes, more than 64 attributes on one element, or more than 100,000 characters in one text or attribute value (an embedded …BinaryObject excepted). Refused at upload; found in a PDF, its job fails with this code.',
  ],
  PDF_MALFORMED: [400, 'The received PDF cannot be read (broken structure, encryption, or an embedded file in an unsupported encoding).'],
  REQUEST_ABORTED: [400, 'The client aborted the request.'],
  INVALID_IDEMPOTENCY_KEY: [400, 'The Idempotency-Key header is malformed (1 to 255 printable characters).'],
  UNAUTHENTICATED: [401, 'X-API-Key is missing, malformed, unknown or revoked.'],
  INVOICE_LIMIT_REACHED: [
    402,
    'The monthly finalization quota of the plan is used up; `usage` (and `used`, `limit`, `reset_date` at the top level) say until when.',
  ],
  PLAN_REQUIRED: [403, 'The operation needs the Pro plan (API keys: API access requires an active Pro subscription).'],
  FORBIDDEN: [403, 'The key may not do this.'],
  TEST_MODE_READ_ONLY: [
    403,
    "A test key (`ak_test_…`) reads the live company's profile, bank accounts, payment terms, logo, members and API keys but cannot change them.",
  ],
  NOT_FOUND: [404, "No such resource (also for another company's ids) or no such path."],
  ATTACHMENT_NOT_FOUND: [
    404,
    'The received e-invoice has no stored attachment with this number (none embedded there, or over the limits: see its INB-ATTACHMENT warning).',
  ],
  METHOD_NOT_ALLOWED: [405, 'The path exists, the method does not; `Allow` lists the methods.'],
  CONFLICT: [409, 'The request conflicts with the current state.'],
  CONCURRENT_MODIFICATION: [409, 'Someone changed the resource meanwhile; fetch it and retry.'],
  DUPLICATE_INVOICE_NUMBER: [409, 'The invoice number is already used by the company.'],
  INVOICE_NOT_DRAFT: [409, 'Only drafts can be changed (the invoice is finalized, cancelled or being finalized).'],
  ATTACHMENT_LIMIT_REACHED: [409, 'The invoice has 20 attachments, the most an invoice may have.'],
  ATTACHMENT_TOO_LARGE: [413, 'An attachment may have at most 5 MiB; the upload was cut and nothing stored.'],
  ATTACHMENT_QUOTA_EXCEEDED: [413, 'The attachments of an invoice may total at most 25 MiB.'],
  LOGO_TOO_LARGE: [413, 'A logo may have at most 1 MiB; the upload was cut and nothing stored.'],
  UNSUPPORTED_LOGO_TYPE: [415, 'The logo is not a PNG or JPEG image (typed by its content); the message names what was found.'],
  LOGO_DIMENSIONS_TOO_LARGE: [
    422,
    'The logo has more than 25 megapixels (read from its header, nothing decoded); `width`, `height` and `max_pixels` say by how much.',
  ],
  LOGO_BUSY: [503, 'Too many logos are being processed at once; wait Retry-After seconds and send it again.'],
  DUPLICATE_BANK_ACCOUNT: [409, "The IBAN is already one of the company's bank accounts."],
  BANK_ACCOUNT_LIMIT_REACHED: [409, 'A company keeps at most 10 bank accounts.'],
  PAYMENT_TERM_IN_USE: [409, "The payment term is used by customers (`customers` counts them) or is the company's default."],
  PAYMENT_TERM_LIMIT_REACHED: [409, 'A company keeps at most 50 payment terms.'],
  DUPLICATE_SKU: [409, 'The SKU is already used by another product of the company.'],
  PRODUCT_INACTIVE: [409, 'The product is inactive; activate it before adding it to an invoice.'],
  INVOICE_NOT_SENDABLE: [409, 'Only finalized invoices (OPEN, SENT, PAID) can be sent by e-mail.'],
  EMAIL_TOO_LARGE: [413, 'The attachments of an e-mail may total at most 20 MiB.'],
  UNSUPPORTED_ATTACHMENT_TYPE: [
    415,
    'The file is not PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF (typed by its content); the message names what was found.',
  ],
  INVOICE_ALREADY_FINALIZED: [409, 'A finalized invoice cannot be cancelled; issue a credit note.'],
  INVOICE_NOT_FINALIZED: [409, 'Only finalized invoices can be credited or marked SENT/PAID.'],
  INVALID_CREDIT_NOTE: [409, 'A credit note cannot be credited again.'],
  CREDIT_EXCEEDS_INVOICE: [
    409,
    "The invoice's credit notes would together credit more than its gross total; `remaining_gross` says how much can still be credited.",
  ],
  INVALID_STATUS_TRANSITION: [409, 'The status change is not allowed from the current status.'],
  INVOICE_NOT_PAYABLE: [409, 'Only finalized invoices (OPEN, SENT) take payments; a draft or a cancelled invoice does not.'],
  INVOICE_ALREADY_PAID: [409, 'The invoice is paid in full (PAID): nothing is open; reverse a payment first.'],
  PAYMENT_EXCEEDS_OPEN_AMOUNT: [
    409,
    "The payment (with the Skonto it would grant) exceeds the invoice's open amount; `open_amount` says how much is open.",
  ],
  SKONTO_NOT_APPLICABLE: [
    409,
    '`skonto: true` was sent but the early-payment discount does not apply (none, granted already, period ended, or amount other than open amount minus discount).',
  ],
  PAYMENT_EXPORTED: [409, 'The payment is in a DATEV export and can no longer be reversed.'],
  INVOICE_NOT_REMINDABLE: [409, 'Only finalized invoices (OPEN, SENT) are reminded; not a draft, a cancelled invoice or a credit note.'],
  INVOICE_NOT_OVERDUE: [409, 'The invoice is not overdue on the reminder date: a reminder can be issued from the day after its due date.'],
  REMINDER_LEVEL_ISSUED: [409, 'The invoice already had a reminder of this level or a higher one; each level is issued once, in order.'],
  REMINDER_LEVELS_EXHAUSTED: [409, 'The invoice already had all three reminders (payment reminder, overdue notice, final reminder).'],
  JOB_IN_PROGRESS: [409, 'A finalization job for the invoice is already queued or running.'],
  LAST_OWNER: [409, 'A company always keeps at least one owner: the last owner cannot be removed or given another role.'],
  MEMBER_EXISTS: [409, 'The e-mail address is already a member of the company (or invited).'],
  API_KEY_LIMIT_REACHED: [409, 'The company already has 10 active API keys.'],
  WEBHOOK_ENDPOINT_LIMIT_REACHED: [409, 'The company already has 16 webhook endpoints.'],
  WEBHOOK_ENDPOINT_DISABLED: [409, 'The webhook endpoint is disabled: enable it first (PUT with enabled: true).'],
  RECURRING_LIMIT: [409, 'The company has 500 recurring invoices that have not ended, the most it may keep.'],
  RECURRING_ENDED: [409, 'The recurring invoice has ended; give a schedule with a later end_date to resume it.'],
  DELIVERY_PENDING: [409, 'The webhook delivery is pending already: it is sent at its next attempt.'],
  CUSTOMER_NUMBERS_EXHAUSTED: [409, 'The company used every customer number (10000-69999).'],
  IDEMPOTENCY_IN_PROGRESS: [
    409,
    'A request with the same Idempotency-Key is still running, or finished a moment ago: send it again shortly to get its answer.',
  ],
  BODY_TIMEOUT: [408, 'The request body did not arrive within BODY_TIMEOUT_MS (30 s) of its head; the connection is closed.'],
  PAYLOAD_TOO_LARGE: [413, 'The body exceeds the limit (1 MiB for JSON).'],
  DOCUMENT_TOO_LARGE: [
    413,
    'The received e-invoice exceeds its limit: 5 MiB for XML (also once extracted from a PDF), 10 MiB for PDF, 1 MiB for POST /inbound/validate.',
  ],
  UNSUPPORTED_MEDIA_TYPE: [415, 'The body is not application/json.'],
  UNSUPPORTED_FORMAT: [
    415,
    'The received document is not an e-invoice format we read: send UBL Invoice/CreditNote or CII XML, or a ZUGFeRD/Factur-X PDF, as application/xml, application/pdf or one multipart file.',
  ],
  IDEMPOTENCY_KEY_REUSED: [422, 'The Idempotency-Key was used before with another request body.'],
  INVOICE_NOT_VALID: [422, 'The invoice cannot be finalized; `errors` lists why (see GET /invoice/{id}/validate).'],
  RECURRING_TEMPLATE_NOT_VALID: [
    422,
    "The recurring invoice's template would not pass finalization (the checks of POST /invoice/validate); `errors` names each field, under `template.` where the template sets it, else the customer's or the company's.",
  ],
  VAT_OVERRIDE_REQUIRED: [422, "The customer's VAT ID is not confirmed (`vat_check.status`); resend with vat_override_confirmed: true."],
  COMPANY_PROFILE_MISSING: [422, 'The company profile lacks data the document needs.'],
  PDF_WITHOUT_EINVOICE: [
    422,
    'The received PDF carries no embedded e-invoice XML (not ZUGFeRD/Factur-X): a plain PDF is not an e-invoice.',
  ],
  DOCUMENT_PROCESSING: [409, 'The received document is still being read; wait for its job (GET /inbound/{id}/job?wait=25).'],
  DOCUMENT_NOT_READABLE: [
    422,
    'The received document was REJECTED (not readable as an e-invoice, see its `error`): it has no reading to render.',
  ],
  VALIDATION_TIMEOUT: [
    422,
    "The error_code of a received document's failed job when reading and validating it took longer than the limit (60 s): the document is too heavy to check; it is not retried.",
  ],
  PROCESSING_FAILED: [
    422,
    "The error_code of a received document's failed job when reading it failed on our side after every retry; upload the document again.",
  ],
  RATE_LIMITED: [429, 'Too many requests for the company; wait Retry-After seconds.'],
  TOO_MANY_SIGN_IN_ATTEMPTS: [429, 'Too many failed sign-ins for this e-mail address (10 within 15 minutes); wait, or reset the password.'],
  TOO_MANY_FAILED_AUTHENTICATIONS: [429, 'Too many failed authentications from this address; wait Retry-After seconds.'],
  EMAIL_LIMIT_EXCEEDED: [
    429,
    'The daily e-mail limit of the company (messages) or of the invoice (sends) is reached; `scope` says which; wait Retry-After seconds (the next UTC day).',
  ],
  TOO_MANY_CONCURRENT_REQUESTS: [
    429,
    'The company has 64 requests in progress at once on a gateway (long polls not counted); wait Retry-After seconds.',
  ],
  NOT_CAMT053: [
    400,
    'The uploaded bank statement is not a camt.053 document (root Document in namespace urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 to .13 with BkToCstmrStmt).',
  ],
  BANK_STATEMENT_INVALID: [
    400,
    'The camt.053 file has invalid values (amounts, currencies, credit/debit indicators, dates, IBANs, missing MsgId or Stmt/Id); `errors` names each place (at most 20).',
  ],
  BANK_STATEMENT_TOO_LARGE: [413, 'A camt.053 file may have at most 20 MiB; the upload was cut and nothing stored.'],
  BANK_STATEMENT_TOO_MANY_ENTRIES: [413, 'A camt.053 file may carry at most 50,000 booking lines and 1,000 statements; split the period.'],
  BANK_ENTRY_NOT_A_CREDIT: [
    409,
    'Only credits (money received, not reversals) can be confirmed as payments; debits are shown, not matched.',
  ],
  BANK_ENTRY_CURRENCY_MISMATCH: [
    409,
    'The credit is in another currency than EUR (`currency`); invoices are in EUR: record the EUR amount your bank booked as a payment (POST /invoice/{id}/payments).',
  ],
  BANK_ENTRY_UNMATCHED: [409, 'The entry has no proposal: name the invoice to book it on (`invoice_id`).'],
  BANK_ENTRY_ALREADY_CONFIRMED: [
    409,
    'The entry was confirmed already, on another invoice or with another amount (`payment_id`); reverse that payment first to book it otherwise.',
  ],
  BANK_AMOUNT_EXCEEDS_CREDIT: [409, 'The amount to book exceeds the credit of the bank statement entry.'],
  INTERNAL_ERROR: [500, 'A bug on our side; quote `error_id` when reporting it.'],
  NOT_IMPLEMENTED: [503, 'The operation is not available yet.'],
  SERVICE_UNAVAILABLE: [503, 'A service the request needs is temporarily unavailable; retry later.'],
  SERVICE_BUSY: [503, 'The service has every slot in use and its queue is full or was waited on too long; wait Retry-After seconds.'],
  RENDER_UNAVAILABLE: [503, 'The PDF view of a received e-invoice could not be rendered now; retry later.'],
  UPSTREAM_TIMEOUT: [504, 'A service did not answer in time; retry later.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).meta({ id: 'ErrorCode' });

/** RFC 9457 problem document plus the members existing clients read. */
export const ProblemBody = z
  .object({
    type: z.string().meta({ description: 'the problem type: a page (relative to the API host) describing the error_code' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    message: z.string(),
    error_code: ErrorCodeSchema,
    code: ErrorCodeSchema,
    errors: z
      .array(
        z.object({
          path: z.string().meta({ description: 'the field (dotted for nested ones: positions.0.tax_rate) or parameter' }),
          in: z.enum(['path', 'query', 'body']).optional(),
          message: z.string().meta({ description: 'what is wrong and what is expected ("required", "must be one of …")' }),
          suggestion: z.union([z.string(), z.number()]).optional().meta({
            description:
              'where the mistake is a common one: the value most likely meant (HUR for "Stunde", 0.19 for 19, 2026-11-29 for 29.11.2026)',
          }),
        }),
      )
      .optional()
      .meta({ description: 'on 400 and 422: one entry per field, at most 20' }),
    errors_total: z
      .number()
      .int()
      .optional()
      .meta({ description: 'when more than 20 fields are wrong: how many (only the first 20 are listed in `errors`)' }),
    error_id: z.string().optional().meta({ description: 'on 5xx: quote it when reporting the problem' }),
  })
  .meta({
    id: 'Problem',
    example: {
      type: '/api/v1/problems/validation-error',
      title: 'Bad Request',
      status: 400,
      detail: 'invalid request: quantity: required; unit_id: "Stunde" is not a UN/ECE Recommendation 20 unit code; for an hour use "HUR"',
      message: 'invalid request: quantity: required; unit_id: "Stunde" is not a UN/ECE Recommendation 20 unit code; for an hour use "HUR"',
      error_code: 'VALIDATION_ERROR',
      code: 'VALIDATION_ERROR',
      errors: [
        { path: 'quantity', message: 'required' },
        { path: 'unit_id', message: '"Stunde" is not a UN/ECE Recommendation 20 unit code; for an hour use "HUR"', suggestion: 'HUR' },
      ],
    },
  });

const Usage = z.object({ used: z.number().int(), limit: z.number().int(), reset_date: z.string() });

/** 402: the quota body, with the usage both under `usage` (the spec) and at the top level (existing SDKs). */
export const QuotaProblem = ProblemBody.extend({ usage: Usage, ...Usage.shape }).meta({
  id: 'QuotaProblem',
  example: {
    type: '/api/v1/problems/invoice-limit-reached',
    title: 'Payment Required',
    status: 402,
    detail: 'monthly invoice limit of 3 reached; it resets on 2026-12-01',
    message: 'monthly invoice limit of 3 reached; it resets on 2026-12-01',
    error_code: 'INVOICE_LIMIT_REACHED',
    code: 'INVOICE_LIMIT_REACHED',
    usage: { used: 3, limit: 3, reset_date: '2026-12-01' },
    used: 3,
    limit: 3,
    reset_date: '2026-12-01',
  },
});

/** 422 at finalization: the VAT status, or the validation errors. */
export const UnprocessableProblem = ProblemBody.extend({
  errors: z
    .array(
      z.object({
        path: z.string(),
        in: z.enum(['path', 'query', 'body']).optional(),
        field: z
          .string()
          .optional()
          .meta({ description: 'at finalization: the finding as GET /invoice/{id}/validate reports it (= path)' }),
        rule: z.string().optional().meta({ description: 'at finalization: e.g. BANK_ACCOUNT_REQUIRED, BR-CO-26, VAT_OVERRIDE_REQUIRED' }),
        message: z.string(),
        suggestion: z.union([z.string(), z.number()]).optional(),
      }),
    )
    .optional()
    .meta({ description: "at finalization: the findings of GET /invoice/{id}/validate's `errors`, each also with `path`" }),
  vat_check: z
    .object({ status: z.enum(['not_checked', 'pending', 'valid', 'invalid', 'unavailable']) })
    .optional()
    .meta({ description: 'at finalization (VAT_OVERRIDE_REQUIRED and INVOICE_NOT_VALID): the customer VAT status' }),
  vat_override_required: z
    .boolean()
    .optional()
    .meta({ description: "at finalization: the customer's VAT ID needs vat_override_confirmed: true (as the validation says)" }),
}).meta({
  id: 'UnprocessableProblem',
  example: {
    type: '/api/v1/problems/vat-override-required',
    title: 'Unprocessable Content',
    status: 422,
    detail: "the customer's VAT ID could not be confirmed (status invalid); resend with vat_override_confirmed: true to finalize anyway",
    message: "the customer's VAT ID could not be confirmed (status invalid); resend with vat_override_confirmed: true to finalize anyway",
    error_code: 'VAT_OVERRIDE_REQUIRED',
    code: 'VAT_OVERRIDE_REQUIRED',
    errors: [
      {
        path: 'customer.vat_id',
        field: 'customer.vat_id',
        rule: 'VAT_OVERRIDE_REQUIRED',
        message:
          "the customer's VAT ID DE136695970 is not confirmed (VAT check status invalid; see GET /customer/1/vat-check): correct it, or finalize with vat_override_confirmed: true to issue the invoice anyway",
      },
    ],
    vat_check: { status: 'invalid' },
    vat_override_required: true,
  },
});
