import { z } from 'zod';
import { DecimalInput, IntId, NUMBER_BOUNDS } from './common';

/** One position of the invoice to credit, with the quantity credited (all of it when left out). */
export const CreditNotePosition = z
  .object({
    position_id: IntId.meta({ description: "the id of the invoice's position (GET /invoice/{id}/positions)" }),
    quantity: DecimalInput({
      maxDecimals: 4,
      min: 0,
      max: NUMBER_BOUNDS.maxQuantity,
      description: "quantity credited, at most the position's quantity; the whole quantity when left out",
    }).optional(),
  })
  .meta({ id: 'CreditNotePosition' });

/**
 * POST /invoice/{id}/credit-note. No body (or `{}`): the credit note copies every position (a full credit,
 * as before). `positions`: a partial credit by position and quantity. `amount`: a partial credit of a gross
 * amount, as one position at the invoice's VAT rate (invoices with one VAT rate and treatment only). The
 * credit notes of an invoice never exceed its gross total together: the amount is reserved when a credit
 * note is finalized (POST /invoice/{id}/job), atomically, and beyond it the answer is 409
 * CREDIT_EXCEEDS_INVOICE with `remaining_gross`.
 */
export const CreditNoteCreate = z
  .object({
    positions: z
      .array(CreditNotePosition)
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'partial credit: these positions of the invoice, each with the quantity credited' }),
    amount: DecimalInput({
      maxDecimals: 2,
      min: 0.01,
      max: NUMBER_BOUNDS.maxAmount,
      description: "partial credit of this gross amount (EUR, VAT included) at the invoice's one VAT rate",
    }).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.positions && b.amount !== undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give either positions or amount, not both' });
    const seen = new Set<number>();
    for (const [i, p] of (b.positions ?? []).entries()) {
      if (seen.has(p.position_id)) ctx.addIssue({ code: 'custom', path: ['positions', i, 'position_id'], message: 'listed twice' });
      seen.add(p.position_id);
    }
  })
  .meta({
    id: 'CreditNoteCreate',
    description:
      'Empty: a full credit note. `positions`: credit these positions (quantity defaults to the whole). `amount`: credit a gross amount. ' +
      'All credit notes of an invoice together stay within its gross total (409 CREDIT_EXCEEDS_INVOICE with remaining_gross).',
    examples: [{}, { positions: [{ position_id: 17, quantity: 2 }, { position_id: 18 }] }, { amount: 59.5 }],
  });
export type CreditNoteCreate = z.output<typeof CreditNoteCreate>;
