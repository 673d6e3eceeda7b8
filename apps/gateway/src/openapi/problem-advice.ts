import type { ErrorCode } from '@inv/contracts';

/**
 * What to do about each problem type, shown on its page (`/api/v1/problems/<code>`): specific to the code, so that
 * no two pages give the same advice (a test checks both). Backticks mark code.
 */
export const PROBLEM_ADVICE: Partial<Record<ErrorCode, string>> = {
  WEBHOOK_URL_NOT_ALLOWED:
    'Register a public `https://` URL whose host resolves to public addresses only; for local testing outside production, http and a tunnel (e.g. a public relay) work.',
  VALIDATION_ERROR:
    'Correct each field `errors` names: `path` is the field (`positions.0.tax_rate`), `in` says whether it is a path parameter, query parameter or body field, `message` says what is expected, and `suggestion`, where present, is the value most likely meant (`HUR` for "Stunde", `0.19` for 19, `2026-11-29` for 29.11.2026). Dates are YYYY-MM-DD, rates fractions, units UN/ECE Rec 20 codes.',
  UNKNOWN_FIELD:
    'Remove or rename the fields and query parameters `errors` lists: "did you mean …?" names the known one that is close, otherwise the message lists what the operation takes. Nothing was stored, so send the corrected request again.',
  MALFORMED_JSON:
    'Send a JSON document: check quotes (double, not single), trailing commas and that the body is not cut off; `JSON.stringify` / `json.dumps` produce valid JSON.',
  MALFORMED_PATH: 'Percent-encode path segments as UTF-8 (`encodeURIComponent`); a literal `%` is `%25`.',
  MALFORMED_REQUEST:
    "Percent-encode the path and the query string as UTF-8 (`ü` is `%C3%BC`, a space `%20`; `encodeURIComponent` or your HTTP client's params option does it) and send well-formed header lines.",
  NESTING_TOO_DEEP: 'Flatten the body: no request of this API needs more than a few levels of objects and arrays.',
  XML_NOT_WELL_FORMED:
    'Check the file at the place `detail` names (unclosed element, stray `&` or `<`, a cut-off upload); validate it with any XML parser before sending.',
  XML_DTD_FORBIDDEN: 'Remove the `<!DOCTYPE …>` and any `<!ENTITY …>` declarations: e-invoices and camt.053 files need neither.',
  XML_ENCODING_UNSUPPORTED: 'Convert the file to UTF-8 and declare `encoding="UTF-8"` (or no encoding) in the XML declaration.',
  XML_TOO_DEEP:
    'The document nests elements far deeper than any e-invoice or bank statement does; send the original file your accounting system exported.',
  XML_TOO_COMPLEX:
    'Split the document or ask the sender for one within the bounds (50,000 elements, 64 attributes per element, 100,000 characters per text); embedded attachments are not counted.',
  PDF_MALFORMED:
    'Send the PDF as the sender produced it, unencrypted and complete; if it opens in a viewer, ask the sender for the XML e-invoice instead.',
  REQUEST_ABORTED: 'Nothing to fix in the request: send it again, and let it finish (check client timeouts for large uploads).',
  INVALID_IDEMPOTENCY_KEY: 'Send an `Idempotency-Key` of 1 to 255 printable ASCII characters, e.g. a UUID.',
  UNAUTHENTICATED:
    'Send a valid, active key in `X-API-Key`; keys are created in the web app (`/app/`) or under Company → API keys, and a revoked key stays invalid.',
  INVOICE_LIMIT_REACHED:
    'Wait until `reset_date`, when the monthly quota starts again, or move the company to a larger plan; drafts can still be prepared meanwhile.',
  PLAN_REQUIRED: 'Upgrade the company to the Pro plan; keys deactivated by a downgrade are not reactivated: create new ones.',
  TEST_MODE_READ_ONLY:
    'Change the company profile, bank accounts, payment terms, logo, members and API keys with a live key (`ak_live_…`) or in the web app; test mode only reads them.',
  FORBIDDEN:
    'Use a key whose role has the permission `missing_permission` names (e.g. `invoices:write`), or ask an owner or admin to change your role.',
  NOT_FOUND:
    "Check the id and the path (e.g. `/invoice/{id}/position/{position_id}` is singular); ids are numbered per company, and another company's ids answer 404 as well.",
  ATTACHMENT_NOT_FOUND:
    "List the received document's attachments (`GET /inbound/{id}`) and use a number listed there; an attachment over the limits is only a warning, never stored.",
  METHOD_NOT_ALLOWED: 'Use one of the methods the `Allow` header lists for this path.',
  CONFLICT: "Fetch the resource, read its current state in the answer's `detail`, and decide whether the change still applies.",
  CONCURRENT_MODIFICATION:
    'Fetch the resource again, apply your change to the current version, and send it again; with an `Idempotency-Key` a retry is safe.',
  DUPLICATE_INVOICE_NUMBER:
    'Leave `invoice_number` out to let the numbering sequence assign the next free number, or send one not used yet.',
  INVOICE_NOT_DRAFT:
    'A finalized invoice is not changed: issue a credit note (`POST /invoice/{id}/credit-note`) and, if needed, a new invoice (`POST /invoice/{id}/duplicate`); while finalizing, wait for its job.',
  ATTACHMENT_LIMIT_REACHED: 'Delete attachments the invoice does not need, or combine files into one PDF.',
  ATTACHMENT_TOO_LARGE: 'Compress the file or split it; each attachment may have at most 5 MiB.',
  ATTACHMENT_QUOTA_EXCEEDED: 'Remove or shrink attachments of this invoice: together they may have at most 25 MiB.',
  LOGO_TOO_LARGE: 'Export the logo smaller (a few hundred pixels wide is plenty for a letterhead), at most 1 MiB.',
  UNSUPPORTED_LOGO_TYPE: 'Upload the logo as PNG or JPEG; convert SVG, WebP or GIF first.',
  LOGO_DIMENSIONS_TOO_LARGE: 'Scale the image down below `max_pixels` (e.g. 2000 × 1000) and upload it again.',
  LOGO_BUSY: 'Upload the logo again after the seconds `Retry-After` says.',
  DUPLICATE_BANK_ACCOUNT:
    'The IBAN is stored already: change that bank account (`PUT /company/bank-accounts/{id}`) instead of adding it again.',
  BANK_ACCOUNT_LIMIT_REACHED: 'Delete a bank account the company no longer uses, then add the new one.',
  PAYMENT_TERM_IN_USE:
    'Give the customers `customers` counts another term (and the company another default), then delete it; or keep it and create a new one.',
  PAYMENT_TERM_LIMIT_REACHED: 'Delete terms nobody uses, or change an existing term instead of adding one.',
  DUPLICATE_SKU: 'Use another SKU, or change the product that has it (`GET /products/?q=<sku>` finds it).',
  PRODUCT_INACTIVE: 'Activate the product (`PUT /products/{id}` with `active: true`) or add the position without `product_id`.',
  INVOICE_NOT_SENDABLE: 'Finalize the invoice first (`POST /invoice/{id}/job`), wait for its job to finish, then send it.',
  EMAIL_TOO_LARGE: 'Attach fewer or smaller files (at most 20 MiB together), or send a download link in the message instead.',
  UNSUPPORTED_ATTACHMENT_TYPE: 'Convert the file to PDF (or one of DOCX, XLSX, PNG, JPEG, WebP, GIF, TIFF) and upload it again.',
  INVOICE_ALREADY_FINALIZED: 'Issue a credit note for the finalized invoice (`POST /invoice/{id}/credit-note`) instead of cancelling it.',
  INVOICE_NOT_FINALIZED: 'Finalize the invoice first; a draft is changed or cancelled, not credited or marked SENT/PAID.',
  INVALID_CREDIT_NOTE: 'Credit the original invoice again (a further credit note) instead of crediting the credit note.',
  CREDIT_EXCEEDS_INVOICE: "Credit at most `remaining_gross`; what was credited already is listed with the invoice's credit notes.",
  INVALID_STATUS_TRANSITION: "Read the invoice's `status` and use a change allowed from it (OPEN → SENT → PAID; cancel only drafts).",
  INVOICE_NOT_PAYABLE: 'Record payments on finalized invoices (OPEN or SENT); finalize the draft first.',
  INVOICE_ALREADY_PAID:
    'Nothing is open: if a payment was booked by mistake, reverse it first (`POST /invoice/{id}/payments/{paymentId}/reverse`).',
  PAYMENT_EXCEEDS_OPEN_AMOUNT:
    'Book at most `open_amount` (less the Skonto if granted); an overpayment is refunded or kept outside this invoice.',
  SKONTO_NOT_APPLICABLE:
    'Send the payment without `skonto: true`, or with exactly the open amount less the discount within the Skonto period.',
  PAYMENT_EXPORTED: 'Correct it in the accounting instead: the payment is in a DATEV export already; book a counter-entry there.',
  INVOICE_NOT_REMINDABLE: 'Remind finalized invoices that are still open (OPEN, SENT); credit notes and drafts get no reminders.',
  INVOICE_NOT_OVERDUE: 'Wait until the day after the due date, or send `date` on or after it.',
  REMINDER_LEVEL_ISSUED: "Leave `level` out to issue the next level, or read the invoice's reminders to see which levels exist.",
  REMINDER_LEVELS_EXHAUSTED: 'All three levels were issued: continue outside the API (a collection agency or a court order).',
  JOB_IN_PROGRESS: 'Poll the running job (`GET /invoice/{id}/job/{job_id}?wait=25`) instead of starting another.',
  LAST_OWNER: 'Make another member owner first, then change or remove this one.',
  MEMBER_EXISTS: "The address is a member or invited already: change that member's role, or resend the invitation from the web app.",
  API_KEY_LIMIT_REACHED: 'Revoke a key that is no longer used (`DELETE /company/api-keys/{key_id}`), then create the new one.',
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 'Delete an endpoint you no longer need, or subscribe one endpoint to more event types.',
  WEBHOOK_ENDPOINT_DISABLED:
    'Fix the receiver, then enable the endpoint (`PUT /webhook-endpoints/{id}` with `enabled: true`) and replay what it missed.',
  RECURRING_LIMIT: 'End or delete recurring invoices that are no longer needed before creating more.',
  RECURRING_ENDED: 'Send a schedule with a later `end_date` (or none) to resume the recurring invoice.',
  DELIVERY_PENDING: "Wait for the delivery's next attempt; retry only deliveries that have failed.",
  CUSTOMER_NUMBERS_EXHAUSTED: 'Contact support: the company has used every customer number of its range.',
  IDEMPOTENCY_IN_PROGRESS: "Send the same request with the same key again in a second or two: it answers the first request's result.",
  BODY_TIMEOUT: "Send the body right after the headers; for slow links, upload smaller files or raise your client's write speed.",
  PAYLOAD_TOO_LARGE: 'Send a smaller JSON body (at most 1 MiB): split large lists into several requests.',
  DOCUMENT_TOO_LARGE: 'Ask the sender for a smaller document (attachments outside the e-invoice), or send the XML without the PDF.',
  UNSUPPORTED_MEDIA_TYPE: 'Send `Content-Type: application/json` with a JSON body (uploads take the types their operation names).',
  UNSUPPORTED_FORMAT:
    'Send the e-invoice as UBL or CII XML, or as a ZUGFeRD/Factur-X PDF with its XML embedded; a scan or plain PDF cannot be read as an e-invoice.',
  IDEMPOTENCY_KEY_REUSED: 'Use a new `Idempotency-Key` for a different request; reuse a key only to retry the identical request.',
  INVOICE_NOT_VALID:
    'Fix each finding `errors` lists (`field`, `rule`, `message`), check with `GET /invoice/{id}/validate` until `valid: true`, then finalize again.',
  RECURRING_TEMPLATE_NOT_VALID:
    'Fix each field `errors` names (under `template.` in the template, else in the customer or the company profile); `POST /invoice/validate` with the template checks it before you save again.',
  VAT_OVERRIDE_REQUIRED:
    "Correct the customer's VAT ID (`PUT /customer/{id}`), or, if you are sure it is right, finalize again with `vat_override_confirmed: true`.",
  COMPANY_PROFILE_MISSING: 'Complete the company profile (`PUT /company/`: legal name, address, VAT ID or tax number) and try again.',
  PDF_WITHOUT_EINVOICE: 'Ask the supplier for the e-invoice (XRechnung, ZUGFeRD/Factur-X or UBL); a plain PDF is booked outside this API.',
  DOCUMENT_PROCESSING: "Wait for the document's job (`GET /inbound/{id}/job?wait=25`), then repeat the request.",
  DOCUMENT_NOT_READABLE: "Read the document's `error`, ask the supplier for a corrected e-invoice and upload that one.",
  VALIDATION_TIMEOUT: 'Ask the supplier for a lighter document (fewer lines or attachments); the same file would time out again.',
  PROCESSING_FAILED: 'Upload the document again; if it fails again, report it quoting the document id.',
  RATE_LIMITED: 'Wait `Retry-After` seconds; spread requests over time and follow the `RateLimit-*` headers.',
  TOO_MANY_SIGN_IN_ATTEMPTS:
    'Ten wrong passwords for this address within 15 minutes: wait 15 minutes, or reset the password (POST /auth/password-resets); the count clears on a successful sign-in.',
  TOO_MANY_FAILED_AUTHENTICATIONS: 'Stop sending wrong keys, wait `Retry-After` seconds, then use a valid key.',
  EMAIL_LIMIT_EXCEEDED: 'Wait until the next UTC day (`Retry-After`); `scope` says whether the company or this invoice reached its limit.',
  TOO_MANY_CONCURRENT_REQUESTS: 'Send fewer requests at once (at most 64 in flight per company); wait `Retry-After` seconds.',
  NOT_CAMT053: 'Export the account statement from online banking as camt.053 (XML), not camt.052/054, MT940 or CSV.',
  BANK_STATEMENT_INVALID: 'Export the statement again from the bank; the places `errors` lists are broken in the file.',
  BANK_STATEMENT_TOO_LARGE: 'Export a shorter period (at most 20 MiB per file).',
  BANK_STATEMENT_TOO_MANY_ENTRIES: 'Export a shorter period: at most 50,000 booking lines and 1,000 statements per file.',
  BANK_ENTRY_NOT_A_CREDIT: 'Only money received is booked on invoices: leave debits and reversals to the accounting.',
  BANK_ENTRY_CURRENCY_MISMATCH: 'Record the EUR amount your bank booked as a payment on the invoice (`POST /invoice/{id}/payments`).',
  BANK_ENTRY_UNMATCHED: 'Name the invoice to book the entry on: send `invoice_id` with the confirmation.',
  BANK_ENTRY_ALREADY_CONFIRMED: 'Reverse the payment `payment_id` names first, then confirm the entry as you intend.',
  BANK_AMOUNT_EXCEEDS_CREDIT: 'Book at most the credit of the entry; the rest of the invoice stays open.',
  INTERNAL_ERROR: 'Retry later; if it persists, report it quoting `error_id` (the log has the details).',
  NOT_IMPLEMENTED: 'Use another way for now (see the API reference); the operation is announced but not available yet.',
  SERVICE_UNAVAILABLE: 'Retry with backoff after a few seconds: a service this request needs is restarting or overloaded.',
  SERVICE_BUSY: 'Retry after `Retry-After` seconds; send large batches more slowly.',
  RENDER_UNAVAILABLE: 'Request the PDF again in a moment; the received document itself is stored and unaffected.',
  UPSTREAM_TIMEOUT:
    'Check whether the change happened (GET the resource) before repeating a write, or repeat it with the same `Idempotency-Key`.',
};
