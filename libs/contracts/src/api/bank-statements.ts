import { z } from 'zod';
import { DecimalInput, IntId, IsoDate, NUMBER_BOUNDS, Pagination } from './common';

/**
 * Bank statements (invoice-service): a camt.053 file (ISO 20022 BankToCustomerStatement, versions 02 to 13) is
 * uploaded, its credits are matched to open invoices, and each proposal is confirmed (or corrected) into a payment
 * or ignored. The same statement uploaded again changes nothing.
 */

/** Largest camt.053 file accepted (bytes). */
export const BANK_STATEMENT_MAX_BYTES = 20 * 1024 * 1024;
/** Most booking lines one file may carry. */
export const BANK_STATEMENT_MAX_ENTRIES = 50_000;

export const BankEntryState = z.enum(['open', 'confirmed', 'ignored']).meta({
  id: 'BankEntryState',
  description: 'open: awaiting your decision (debits stay open: they are shown, not matched); confirmed: booked as a payment; ignored',
});

export const BankStatementListQuery = Pagination.strict();
export type BankStatementListQuery = z.output<typeof BankStatementListQuery>;

/** GET /bank-statements/{id}: the statement and one page of its entries (a statement may have 50,000). */
export const BankStatementQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1).meta({ description: '1-based page of entries' }),
    limit: z.coerce.number().int().min(1).max(1000).default(100).meta({ description: 'entries per page, at most 1,000 (default 100)' }),
    state: BankEntryState.optional().meta({ description: 'only entries in this state', example: 'open' }),
  })
  .strict();
export type BankStatementQuery = z.output<typeof BankStatementQuery>;

/** POST /bank-statements/{id}/entries/{entryId}/confirm: without a body the best proposal is booked as proposed. */
export const BankEntryConfirm = z
  .object({
    invoice_id: IntId.optional().meta({ description: 'book on this invoice instead of the best proposal (a correction)' }),
    amount: DecimalInput({
      maxDecimals: 2,
      min: 0.01,
      max: NUMBER_BOUNDS.maxAmount,
      description: "amount to book in EUR (default: the proposal's amount, else the credit); at most the credit",
    }).optional(),
    date: IsoDate.optional().meta({ description: "payment date (default: the entry's value date, else its booking date)" }),
  })
  .strict()
  .meta({ id: 'BankEntryConfirm', examples: [{}, { invoice_id: 42, amount: '100.00' }] });
export type BankEntryConfirm = z.output<typeof BankEntryConfirm>;

const Money = z.number().meta({ description: 'amount in EUR, exact to the cent' });

export const BankMatchProposal = z
  .object({
    invoice_id: z.number().int(),
    invoice_number: z.string(),
    customer_id: z.number().int(),
    amount: Money.meta({ description: 'what confirming books: the credit, or the open amount when the credit is larger' }),
    open_amount: Money.meta({ description: "the invoice's open amount at the import" }),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: '0..1: 0.95 invoice number or RF reference and amount, 0.8 amount and payer, 0.5 amount alone' }),
    reasons: z.array(z.string()).meta({
      description:
        'invoice_number, creditor_reference, amount_equals_open, amount_equals_open_minus_skonto, partial_payment, amount_exceeds_open, several_invoice_numbers, short_invoice_number, payer_iban_known, payer_name_matches, amount_unique, several_candidates',
    }),
  })
  .meta({ id: 'BankMatchProposal' });

export const BankStatementEntry = z
  .object({
    id: z.number().int().meta({ description: 'the line of the file, 1-based' }),
    statement_ref: z.string().meta({ description: 'Stmt/Id of the camt.053 statement the line belongs to' }),
    type: z.enum(['credit', 'debit']),
    amount: z.string().meta({ description: 'decimal string as the bank wrote it' }),
    currency: z.string(),
    reversal: z.boolean(),
    booking_status: z.string().nullable().meta({ description: 'BOOK, PDNG, INFO (only BOOK is matched)' }),
    booking_date: z.string().nullable(),
    value_date: z.string().nullable(),
    payer_name: z.string().nullable(),
    payer_iban: z.string().nullable(),
    end_to_end_id: z.string().nullable(),
    bank_reference: z.string().nullable(),
    remittance_information: z.array(z.string()).meta({ description: 'RmtInf/Ustrd lines' }),
    references: z.array(z.string()).meta({ description: 'structured references: RF creditor references, referred document numbers' }),
    additional_information: z.string().nullable(),
    state: BankEntryState,
    proposals: z.array(BankMatchProposal).meta({ description: 'best first, at most 5; empty for debits and credits nothing fits' }),
    payment: z
      .object({ payment_id: z.number().int(), invoice_id: z.number().int(), amount: Money, confirmed_at: z.string() })
      .nullable()
      .meta({ description: 'the payment the confirmation recorded (GET /invoice/{invoice_id}/payments)' }),
  })
  .meta({ id: 'BankStatementEntry' });

export const BankStatement = z
  .object({
    id: z.number().int(),
    message_id: z.string().meta({ description: 'GrpHdr/MsgId' }),
    camt_version: z.string().meta({ description: 'camt.053.001.xx: "02" … "13"' }),
    statements: z.array(z.object({ id: z.string(), account_iban: z.string(), currency: z.string().nullable() })),
    filename: z.string().nullable(),
    size: z.number().int(),
    sha256: z.string(),
    entries_total: z.number().int(),
    credits: z.number().int(),
    debits: z.number().int(),
    credits_with_proposals: z.number().int(),
    confirmed: z.number().int(),
    ignored: z.number().int(),
    created_at: z.string(),
    entries: z.array(BankStatementEntry).optional().meta({
      description: 'on GET /bank-statements/{id} (a page of them, `page` and `limit` as asked) and in the import answer; not in lists',
    }),
    page: z.number().int().optional().meta({ description: 'with entries: the page of entries' }),
    limit: z.number().int().optional().meta({ description: 'with entries: entries per page' }),
    total: z.number().int().optional().meta({ description: 'with entries: the entries matching `state` (all without it)' }),
  })
  .meta({
    id: 'BankStatement',
    description: 'One shape in the list and in the detail; the detail adds a page of its entries.',
  });

/** GET /bank-statements/{id}: the statement with a page of its entries (the same schema as a list item). */
export const BankStatementDetail = BankStatement;

export const BankStatementList = z
  .object({
    bank_statements: z.array(BankStatement),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .meta({ id: 'BankStatementList' });

/** POST /bank-statements/: 201 imported, 200 imported before (nothing changed); with the first 100 entries. */
export const BankStatementImported = BankStatement.extend({
  message: z.string(),
  entries: z.array(BankStatementEntry).meta({ description: 'the first 100 entries' }),
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int().meta({ description: 'entries of the statement' }),
}).meta({ id: 'BankStatementImported' });

/** POST …/confirm and …/ignore: the entry as it is now. */
export const BankEntryChanged = BankStatementEntry.extend({ message: z.string() }).meta({ id: 'BankEntryChanged' });
