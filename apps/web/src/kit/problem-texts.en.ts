/**
 * What each problem code a service answers means to a person in the browser, in English: what happened and what to do.
 * The keys are the `code` / `error_code` values of the services' problem documents (libs/contracts ERROR_CODES, and
 * every code the services' sources produce: problem-texts.spec.ts scans them). problem-texts.de.ts has the same keys.
 */
export const PROBLEM_TEXTS_EN = {
  // the request itself
  VALIDATION_ERROR: 'Please check your entries.',
  INVALID_DATA: 'Please check your entries.',
  UNKNOWN_FIELD: 'The form sent a field the service does not know. Reload the page and try again.',
  MALFORMED_JSON: 'The form could not be read. Reload the page and try again.',
  MALFORMED_PATH: 'The address of this page is broken. Go back to the list and open the entry again.',
  MALFORMED_REQUEST: 'The form could not be read. Reload the page and try again.',
  NESTING_TOO_DEEP: 'The form could not be read. Reload the page and try again.',
  REQUEST_ABORTED: 'The transfer was interrupted. Please try again.',
  BODY_TIMEOUT: 'The upload took too long and was stopped. Check your connection and try again.',
  PAYLOAD_TOO_LARGE: 'The form is too large. Shorten the entries and try again.',
  UNSUPPORTED_MEDIA_TYPE: 'The form was sent in a format the service does not accept. Reload the page and try again.',
  METHOD_NOT_ALLOWED: 'This action is not possible here. Reload the page and try again.',
  INVALID_IDEMPOTENCY_KEY: 'The form could not be sent safely. Reload the page and try again.',
  IDEMPOTENCY_IN_PROGRESS: 'This form is still being processed. Wait a moment and reload the page before sending it again.',
  IDEMPOTENCY_KEY_REUSED: 'The form was changed after it had already been sent once. Reload the page and enter the data again.',

  // sign-in, roles, plan, limits
  UNAUTHENTICATED: 'Your session has ended. Please sign in again.',
  TOO_MANY_SIGN_IN_ATTEMPTS: 'Too many failed sign-ins for this e-mail address. Please wait 15 minutes or reset your password.',
  TOO_MANY_FAILED_AUTHENTICATIONS: 'Too many failed sign-in attempts from your network. Please wait a few minutes and try again.',
  FORBIDDEN: 'Your role may not do this. Ask an owner or an admin of your company.',
  PLAN_REQUIRED: 'API keys need the Pro plan. Your company is on the Free plan.',
  TEST_MODE_READ_ONLY: 'A test key cannot change the company; use a live key.',
  RATE_LIMITED: 'Too many requests at once. Please wait a moment and try again.',
  TOO_MANY_CONCURRENT_REQUESTS: 'Your company has too many actions running at the same time. Please wait a moment and try again.',
  INVOICE_LIMIT_REACHED:
    'Your plan’s quota of finalized invoices for this month is used up. Drafts can still be prepared; finalize them once the quota resets or after upgrading the plan.',

  // general state
  NOT_FOUND: 'This no longer exists. Reload the page.',
  CONFLICT: 'This is not possible in the current state. Reload the page and check the entry.',
  CONCURRENT_MODIFICATION: 'Someone changed this at the same time. Reload the page and try again.',

  // members, API keys, webhooks
  MEMBER_EXISTS: 'This address is already a member or invited. Pick another address or change the member’s role.',
  LAST_OWNER: 'A company always keeps at least one owner. Make another member owner first.',
  API_KEY_LIMIT_REACHED: 'Your company already has 10 active API keys, the most it may have. Revoke one first.',
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 'Your company already has 16 webhook endpoints, the most it may have. Delete one first.',
  WEBHOOK_URL_NOT_ALLOWED:
    'This URL may not receive webhooks: use an https:// address on the public internet (no localhost, no private network).',
  WEBHOOK_ENDPOINT_DISABLED: 'The endpoint is disabled. Enable it first, then try again.',
  DELIVERY_PENDING: 'An attempt of this delivery is in flight. Its outcome appears in the log shortly.',

  // company profile, logo, bank accounts, payment terms
  COMPANY_PROFILE_MISSING:
    'The company profile lacks data this document needs (such as the legal name, address or tax number). Complete it under Settings → Company.',
  LOGO_TOO_LARGE: 'The logo is larger than 1 MB. Choose a smaller image.',
  UNSUPPORTED_LOGO_TYPE: 'The logo must be a PNG or JPEG image. Choose another file.',
  LOGO_DIMENSIONS_TOO_LARGE: 'The logo has more than 25 megapixels. Scale the image down and upload it again.',
  LOGO_BUSY: 'Many logos are being processed right now. Please try again in a minute.',
  DUPLICATE_BANK_ACCOUNT: 'This IBAN is already one of your company’s bank accounts.',
  BANK_ACCOUNT_LIMIT_REACHED: 'Your company already has 10 bank accounts, the most it may have. Delete one first.',
  PAYMENT_TERM_IN_USE:
    'This payment term is still assigned to customers or is the company’s default. Assign another payment term to them first.',
  PAYMENT_TERM_LIMIT_REACHED: 'Your company already has 50 payment terms, the most it may have. Delete one first.',

  // customers, products
  CUSTOMER_NUMBERS_EXHAUSTED: 'Every customer number from 10000 to 69999 is in use; no further customer can be created.',
  DUPLICATE_SKU: 'This article number (SKU) is already used by another product. Choose another one.',
  PRODUCT_INACTIVE: 'This product is inactive. Activate it before adding it to an invoice.',

  // invoices and their documents
  DUPLICATE_INVOICE_NUMBER: 'This invoice number is already used. Choose another one or leave the field empty to use the number range.',
  INVOICE_NOT_DRAFT: 'Only drafts can be changed. This invoice is finalized, cancelled or being finalized right now.',
  INVOICE_NOT_VALID:
    'The invoice cannot be finalized yet: data is missing or wrong. Open the check of the invoice to see what to complete.',
  VAT_OVERRIDE_REQUIRED:
    'The customer’s VAT ID could not be confirmed. Correct it in the customer, or confirm that you want to finalize the invoice anyway.',
  JOB_IN_PROGRESS: 'This invoice is being finalized right now. Wait a moment and reload the page.',
  INVOICE_ALREADY_FINALIZED: 'A finalized invoice cannot be cancelled. Issue a credit note instead.',
  INVOICE_NOT_FINALIZED: 'Only finalized invoices can be credited or marked as sent or paid. Finalize the invoice first.',
  INVALID_CREDIT_NOTE: 'A credit note cannot be credited again.',
  CREDIT_EXCEEDS_INVOICE:
    'The credit notes would together credit more than the invoice’s gross total. Reduce the amount to what is still open for crediting.',
  INVALID_STATUS_TRANSITION: 'This status change is not possible from the invoice’s current status. Reload the page.',
  ATTACHMENT_NOT_FOUND:
    'This attachment of the received e-invoice is not stored: none was embedded there, or it exceeded the limits (see the document’s warnings).',
  ATTACHMENT_LIMIT_REACHED: 'This invoice already has 20 attachments, the most it may have. Remove one first.',
  ATTACHMENT_TOO_LARGE: 'An attachment may be at most 5 MB. Choose a smaller file.',
  ATTACHMENT_QUOTA_EXCEEDED: 'The attachments of an invoice may total at most 25 MB. Remove an attachment or choose a smaller file.',
  UNSUPPORTED_ATTACHMENT_TYPE: 'This file type cannot be attached. Use PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF.',

  // sending by e-mail
  INVOICE_NOT_SENDABLE: 'Only finalized invoices can be sent by e-mail. Finalize the invoice first.',
  EMAIL_TOO_LARGE: 'The attachments of this e-mail exceed 20 MB. Send fewer or smaller attachments.',
  EMAIL_LIMIT_EXCEEDED: 'Today’s e-mail limit is reached (for the company or for this invoice). Please send it again tomorrow.',

  // payments, dunning
  INVOICE_NOT_PAYABLE: 'Payments can only be recorded for finalized, open invoices, not for a draft or a cancelled invoice.',
  INVOICE_ALREADY_PAID: 'This invoice is already paid in full. To record the payment differently, reverse a payment first.',
  PAYMENT_EXCEEDS_OPEN_AMOUNT:
    'The payment (with any early-payment discount) is higher than the open amount of the invoice. Check the amount.',
  SKONTO_NOT_APPLICABLE:
    'The early-payment discount does not apply: the invoice has none, it was granted already, its period has ended, or the amount is not the open amount minus the discount.',
  PAYMENT_EXPORTED: 'This payment is already in a DATEV export and can no longer be reversed.',
  INVOICE_NOT_REMINDABLE: 'Only finalized, open invoices can be reminded, not a draft, a cancelled invoice or a credit note.',
  INVOICE_NOT_OVERDUE: 'This invoice is not overdue yet. A dunning notice is possible from the day after the due date.',
  REMINDER_LEVEL_ISSUED: 'This invoice already had a reminder of this level or a higher one. Each level is issued once, in order.',
  REMINDER_LEVELS_EXHAUSTED: 'This invoice already had all three levels (payment reminder, first and second dunning notice).',

  // bank statements
  NOT_CAMT053: 'This file is not a camt.053 bank statement. Download the account statement from your bank in camt.053 format.',
  BANK_STATEMENT_INVALID: 'The bank statement contains invalid values. Download it from your bank again and upload the original file.',
  BANK_STATEMENT_TOO_LARGE: 'The bank statement is larger than 20 MB. Download a shorter period.',
  BANK_STATEMENT_TOO_MANY_ENTRIES: 'The bank statement has too many entries. Download a shorter period.',
  BANK_ENTRY_NOT_A_CREDIT: 'Only incoming payments can be booked as payments; debits and reversals are only shown.',
  BANK_ENTRY_CURRENCY_MISMATCH:
    'The incoming payment is not in euros. Record the euro amount your bank booked as a payment on the invoice.',
  BANK_ENTRY_UNMATCHED: 'No invoice was found for this entry. Choose the invoice to book it on.',
  BANK_ENTRY_ALREADY_CONFIRMED: 'This entry is already booked as a payment. To book it otherwise, reverse that payment first.',
  BANK_AMOUNT_EXCEEDS_CREDIT: 'The amount is higher than the incoming payment of this entry. Check the amount.',

  // recurring invoices
  RECURRING_LIMIT: 'Your company already has 500 active recurring invoices, the most it may have. End one first.',
  RECURRING_ENDED: 'This recurring invoice has ended. Set a later end date to resume it.',
  RECURRING_TEMPLATE_NOT_VALID:
    'Invoices from this template could not be finalized: data is missing or wrong in the template, the customer or the company profile.',

  // received e-invoices
  DOCUMENT_TOO_LARGE: 'The file is too large (XML at most 5 MB, PDF at most 10 MB).',
  UNSUPPORTED_FORMAT: 'This file is not an e-invoice we can read. Upload an XRechnung, a UBL or CII XML file, or a ZUGFeRD/Factur-X PDF.',
  PDF_WITHOUT_EINVOICE: 'This PDF contains no e-invoice data (it is not ZUGFeRD/Factur-X). Ask the sender for the e-invoice.',
  PDF_MALFORMED: 'The PDF cannot be read (damaged or encrypted). Ask the sender for the original file or the XML e-invoice.',
  XML_NOT_WELL_FORMED: 'The XML file is damaged or incomplete. Ask the sender for the original file.',
  XML_DTD_FORBIDDEN:
    'The XML file contains a document type declaration, which e-invoices and bank statements never have. Upload the original file.',
  XML_ENCODING_UNSUPPORTED: 'The XML file is not UTF-8 encoded. Ask the sender for a UTF-8 file.',
  XML_TOO_DEEP: 'The XML file is nested far more deeply than an e-invoice or bank statement ever is. Upload the original file.',
  XML_TOO_COMPLEX: 'The XML file is too large to check. Ask the sender for a smaller document.',
  DOCUMENT_PROCESSING: 'This document is still being read. Please wait a moment and reload the page.',
  DOCUMENT_NOT_READABLE: 'This document could not be read as an e-invoice, so there is no view of it. See the reason in its details.',
  VALIDATION_TIMEOUT: 'Checking this document took too long; it is too complex to check.',
  PROCESSING_FAILED: 'Reading this document failed on our side. Please upload it again.',
  RENDER_UNAVAILABLE: 'The view of this e-invoice cannot be shown right now. Please try again later.',

  // our side
  INTERNAL_ERROR: 'An error occurred on our side. Please try again; if it happens again, contact support.',
  NOT_IMPLEMENTED: 'This function is not available yet.',
  SERVICE_UNAVAILABLE: 'This function is temporarily unavailable. Please try again in a moment.',
  SERVICE_BUSY: 'The service is very busy right now. Please try again in a moment.',
  UPSTREAM_TIMEOUT: 'The service did not answer in time. Please try again in a moment.',
} as const satisfies Record<string, string>;

export type ProblemCode = keyof typeof PROBLEM_TEXTS_EN;
