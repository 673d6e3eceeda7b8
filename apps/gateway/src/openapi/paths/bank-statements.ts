import {
  BankEntryChanged,
  BankEntryConfirm,
  BankStatementImported,
  BankStatementList,
  BankStatementListQuery,
  BankStatementQuery,
  BankStatement,
} from '@inv/contracts';
import {
  body,
  commonErrors,
  conflict,
  intId,
  notFound,
  paginationHeaders,
  problem,
  queryParams,
  type Operation,
  jsonExample,
} from '../builder';

export const statement = {
  id: 3,
  message_id: 'MSG-2026-11-27-0001',
  camt_version: '08',
  statements: [{ id: 'STMT-2026-11-26', account_iban: 'DE44500105175407324931', currency: 'EUR' }],
  filename: 'camt053_2026-11-26.xml',
  size: 5120,
  sha256: '3f1e9c0d2b7a4e58c6d1f0a9b8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b',
  entries_total: 3,
  credits: 2,
  debits: 1,
  credits_with_proposals: 2,
  confirmed: 0,
  ignored: 0,
  created_at: '2026-11-27T07:02:11.413Z',
};
export const entry = {
  id: 1,
  statement_ref: 'STMT-2026-11-26',
  type: 'credit',
  amount: '119.00',
  currency: 'EUR',
  reversal: false,
  booking_status: 'BOOK',
  booking_date: '2026-11-26',
  value_date: '2026-11-26',
  payer_name: 'Muster GmbH',
  payer_iban: 'DE89370400440532013000',
  end_to_end_id: 'E2E-MUSTER-1',
  bank_reference: 'BANKREF-0001',
  remittance_information: ['Rechnung RE-2026-0042, Kd.-Nr. 4711'],
  references: [],
  additional_information: null,
  state: 'open',
  proposals: [
    {
      invoice_id: 42,
      invoice_number: 'RE-2026-0042',
      customer_id: 7,
      amount: 119,
      open_amount: 119,
      confidence: 0.95,
      reasons: ['invoice_number', 'amount_equals_open'],
    },
  ],
  payment: null,
};
const byAmount = {
  ...entry,
  id: 2,
  amount: '357.00',
  payer_name: 'BEISPIEL AG',
  payer_iban: 'DE02120300000000202051',
  end_to_end_id: null,
  bank_reference: null,
  remittance_information: ['Zahlung, vielen Dank'],
  proposals: [
    {
      invoice_id: 44,
      invoice_number: 'RE-2026-0044',
      customer_id: 9,
      amount: 357,
      open_amount: 357,
      confidence: 0.8,
      reasons: ['amount_equals_open', 'payer_name_matches', 'amount_unique'],
    },
  ],
};
const debit = {
  ...entry,
  id: 3,
  type: 'debit',
  amount: '12.50',
  payer_name: null,
  payer_iban: null,
  end_to_end_id: null,
  bank_reference: null,
  remittance_information: [],
  additional_information: 'Kontoführung November',
  proposals: [],
};
const confirmed = {
  ...entry,
  state: 'confirmed',
  payment: { payment_id: 17, invoice_id: 42, amount: 119, confirmed_at: '2026-11-27T07:05:40.120Z' },
};

const MATCHING =
  'Each credit is matched to the open invoices (OPEN, SENT) of the company: (1) an invoice number in the remittance information ' +
  '(compared without case, spaces and hyphens) or an ISO 11649 RF creditor reference whose reference part is the number: confidence 0.95 when the amount ' +
  'equals the open amount, 0.9 when it equals the open amount minus Skonto within its period, 0.75 for a partial payment, 0.6 when the credit is larger ' +
  '(the proposal books the open amount); (2) otherwise the amount equals the open amount of open invoices: 0.8 when exactly one belongs to a customer the ' +
  'payer is known as (an IBAN that paid for that customer in a confirmed match, or the payer name matching the customer name), 0.5 when the amount alone ' +
  'is unique, lower shares when several fit. Debits, reversals, unbooked (PDNG, INFO) and non-EUR lines get no proposal. `reasons` say why.';

/** /bank-statements (invoice-service): camt.053 uploads, match proposals, confirmation into payments. */
export function bankStatementPaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Bank statements'], ...o });
  const id = intId('id', 'bank statement id (per company, from 1)');
  const entryId = intId('entryId', 'entry id: the line of the file, from 1');
  return {
    '/bank-statements/': {
      get: op({
        operationId: 'listBankStatements',
        summary: 'List bank statements',
        description: 'Newest first, with counts of credits, proposals, confirmed and ignored entries.',
        parameters: queryParams(BankStatementListQuery),
        responses: {
          200: jsonExample(
            BankStatementList,
            { bank_statements: [statement], total: 1, page: 1, limit: 25 },
            'a page of statements',
            paginationHeaders,
          ),
          ...commonErrors(),
        },
      }),
      post: op({
        operationId: 'importBankStatement',
        summary: 'Upload a camt.053 bank statement',
        description:
          'A camt.053 file (ISO 20022 BankToCustomerStatement, camt.053.001.02 to .13; banks send 02, 04 and 08) as the raw body (application/xml) ' +
          'or as the one file of multipart/form-data, at most 20 MiB, 50,000 booking lines and 1,000 statements (Stmt). Every line is stored with its payer, remittance ' +
          `information and proposals. ${MATCHING} ` +
          'The same statement uploaded again (same MsgId, Stmt Ids and accounts, or the same bytes) answers 200 with the stored statement: nothing changes twice. ' +
          'The answer carries the first 100 entries (GET /bank-statements/{id} pages through all). Webhook bank_statement.imported on the first import. ' +
          'DTDs and entities are refused, never resolved.',
        requestBody: {
          required: true,
          content: {
            'application/xml': {
              schema: { type: 'string', description: 'the camt.053 document, UTF-8, at most 20 MiB' },
              example:
                '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">\n  <BkToCstmrStmt>\n    <GrpHdr><MsgId>MSG-2026-11-27-0001</MsgId>…</GrpHdr>\n    <Stmt><Id>STMT-2026-11-26</Id><Acct><Id><IBAN>DE44500105175407324931</IBAN></Id></Acct>\n      <Ntry><Amt Ccy="EUR">119.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>…</Ntry>\n    </Stmt>\n  </BkToCstmrStmt>\n</Document>',
            },
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: { file: { type: 'string', format: 'binary', description: 'the one camt.053 file' } },
              },
            },
          },
        },
        responses: {
          201: jsonExample(
            BankStatementImported,
            { message: 'bank statement imported', ...statement, entries: [entry, byAmount, debit], page: 1, limit: 100, total: 3 },
            'imported (Location: the statement)',
          ),
          200: jsonExample(
            BankStatementImported,
            {
              message: 'bank statement imported before: nothing changed',
              ...statement,
              entries: [entry, byAmount, debit],
              page: 1,
              limit: 100,
              total: 3,
            },
            'the same statement was imported before: the stored one, unchanged',
          ),
          ...commonErrors(),
          400: problem(
            'not a sound camt.053: NOT_CAMT053 (another document or version), XML_NOT_WELL_FORMED, XML_DTD_FORBIDDEN (any DTD or entity), XML_ENCODING_UNSUPPORTED (not UTF-8), ' +
              'XML_TOO_DEEP, BANK_STATEMENT_INVALID (amounts, currencies, CdtDbtInd, dates, IBANs, missing MsgId or Stmt/Id; `errors` names each place)',
          ),
          413: problem(
            'BANK_STATEMENT_TOO_LARGE (over 20 MiB, cut while streaming) or BANK_STATEMENT_TOO_MANY_ENTRIES (over 50,000 lines or 1,000 statements)',
          ),
          415: problem('UNSUPPORTED_MEDIA_TYPE: not application/xml, text/xml or multipart/form-data'),
        },
      }),
    },
    '/bank-statements/{id}': {
      parameters: [id],
      get: op({
        operationId: 'getBankStatement',
        summary: 'Get a bank statement with its entries',
        description: 'The statement and one page of its entries (in file order) with their proposals, best first; `state` filters.',
        parameters: queryParams(BankStatementQuery),
        responses: {
          200: jsonExample(
            BankStatement,
            { ...statement, entries: [entry, byAmount, debit], page: 1, limit: 100, total: 3 },
            'the statement and a page of entries',
            paginationHeaders,
          ),
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
    '/bank-statements/{id}/entries/{entryId}/confirm': {
      parameters: [id, entryId],
      post: op({
        operationId: 'confirmBankStatementEntry',
        summary: 'Confirm an entry as a payment',
        description:
          'Records the credit as a payment (source bank_statement, method BANK_TRANSFER, dated the value date) on the best proposal; ' +
          'or correct it: `invoice_id` books it on another invoice, `amount` books part of the credit, `date` dates it otherwise. ' +
          'Fully paid invoices become PAID (webhooks invoice.payment_recorded, invoice.status_changed). The payment and the entry are written together: ' +
          'confirming again answers 200 with the same payment, never a second one. An ignored entry can still be confirmed. ' +
          'Once its payment is reversed (POST /invoice/{id}/payments/{paymentId}/reverse) the entry can be confirmed again, on another invoice too, or ignored.',
        requestBody: { ...body(BankEntryConfirm, { invoice_id: 42, amount: 100 }), required: false },
        responses: {
          201: jsonExample(BankEntryChanged, { message: 'payment 17 recorded', ...confirmed }, 'the payment was recorded'),
          200: jsonExample(
            BankEntryChanged,
            { message: 'confirmed before: nothing changed', ...confirmed },
            'confirmed before with the same booking',
          ),
          ...notFound(),
          ...conflict(
            'BANK_ENTRY_NOT_A_CREDIT (a debit or reversal), BANK_ENTRY_CURRENCY_MISMATCH (a credit in another currency than EUR; `currency`), BANK_ENTRY_UNMATCHED (no proposal: name invoice_id), BANK_ENTRY_ALREADY_CONFIRMED (on another invoice or amount; `payment_id`), ' +
              'BANK_AMOUNT_EXCEEDS_CREDIT, and those of recording a payment: INVOICE_NOT_PAYABLE, INVOICE_ALREADY_PAID, PAYMENT_EXCEEDS_OPEN_AMOUNT (`open_amount`), CONCURRENT_MODIFICATION',
          ),
          ...commonErrors(),
        },
      }),
    },
    '/bank-statements/{id}/entries/{entryId}/ignore': {
      parameters: [id, entryId],
      post: op({
        operationId: 'ignoreBankStatementEntry',
        summary: 'Ignore an entry',
        description:
          'Marks the entry as needing no payment (a credit that is no invoice’s, a debit). Ignoring again changes nothing; a confirmed entry only once its payment is reversed. No body.',
        responses: {
          200: jsonExample(BankEntryChanged, { message: 'entry 3 ignored', ...debit, state: 'ignored' }, 'ignored'),
          ...notFound(),
          ...conflict('BANK_ENTRY_ALREADY_CONFIRMED: the entry is booked as a payment (reverse the payment first)'),
          ...commonErrors(),
        },
      }),
    },
  };
}
