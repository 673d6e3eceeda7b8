import { z } from 'zod';
import { DecimalInput, NUMBER_BOUNDS, Pagination, TaxRateInput } from './common';
import { TaxTreatmentId } from './invoices';
import { safeText } from './safe-text';
import { isMistakenUnitWord, UNIT_CODES, unitCodeIssue } from './unit-codes';

/**
 * A UN/ECE Rec 20 unit code (upper-cased), e.g. C62 piece, HUR hour, DAY day, MON month. A unit word ("Stunde",
 * "Stk") is refused with the code it most likely means (`suggestion`).
 */
export const UnitCode = z
  .string()
  .trim()
  .min(1)
  .transform((s, ctx) => {
    const code = s.toUpperCase();
    if (!UNIT_CODES.has(code) || isMistakenUnitWord(s)) {
      ctx.addIssue({ code: 'custom', ...unitCodeIssue(s) });
      return z.NEVER;
    }
    return code;
  })
  .meta({ type: 'string', minLength: 1, maxLength: 3, description: 'UN/ECE Recommendation 20 unit code, e.g. HUR hour, C62 piece' });

const productFields = {
  name: safeText(z.string().trim().min(1).max(500)),
  description: safeText(z.string().max(2000), { multiLine: true }).nullable().optional(),
  unit_id: UnitCode,
  unit_net_amount: DecimalInput({ maxDecimals: 4, min: 0, max: NUMBER_BOUNDS.maxUnitPrice, description: 'net price per unit' }),
  tax_rate: TaxRateInput('decimal fraction: 0.19 = 19 %; default from the tax treatment').optional(),
  tax_treatment_id: TaxTreatmentId.optional().meta({ description: 'default standard' }),
  sku: safeText(z.string().trim().min(1).max(64))
    .nullable()
    .optional()
    .meta({ description: 'your article number, unique within the company' }),
  active: z
    .boolean()
    .optional()
    .meta({ description: 'inactive products stay on issued invoices but cannot be added to new positions (default true)' }),
};
export const ProductInput = z.object(productFields).meta({ id: 'ProductInput' });
export type ProductInput = z.output<typeof ProductInput>;
export const ProductUpdate = z.object(productFields).partial().meta({ id: 'ProductUpdate' });
export type ProductUpdate = z.output<typeof ProductUpdate>;
export const Product = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    unit_id: z.string(),
    unit_net_amount: z.number(),
    tax_rate: z.number(),
    tax_treatment_id: TaxTreatmentId,
    sku: z.string().nullable(),
    active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Product' });
export const ProductListQuery = Pagination.extend({
  q: z.string().trim().min(1).max(100).optional().meta({ description: 'name or SKU contains this text (case-insensitive)' }),
  active: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type ProductListQuery = z.output<typeof ProductListQuery>;

export const NumberingDocumentType = z.enum(['invoice', 'credit_note']);
export type NumberingDocumentType = z.output<typeof NumberingDocumentType>;
export const NumberingReset = z.enum(['never', 'yearly', 'monthly']);

/** Placeholders a numbering pattern may use; {SEQ} or {SEQ:n} (1-12 digits, zero-padded) must appear once. */
export const NUMBERING_PLACEHOLDERS = ['{YYYY}', '{YY}', '{MM}', '{DD}', '{SEQ}', '{SEQ:n}'] as const;
export const NumberingPattern = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .superRefine((p, ctx) => {
    const placeholders = p.match(/\{[^}]*\}/g) ?? [];
    const bad = placeholders.filter((t) => !/^\{(YYYY|YY|MM|DD|SEQ|SEQ:(?:[1-9]|1[0-2]))\}$/.test(t));
    if (bad.length)
      ctx.addIssue({ code: 'custom', message: `unknown placeholder ${bad[0]}; use ${NUMBERING_PLACEHOLDERS.join(', ')} (n from 1 to 12)` });
    const seq = placeholders.filter((t) => t.startsWith('{SEQ'));
    if (seq.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: 'the pattern must contain {SEQ} or {SEQ:n} exactly once, or it cannot produce unique numbers',
      });
    if (/[{}]/.test(p.replace(/\{[^}]*\}/g, ''))) ctx.addIssue({ code: 'custom', message: 'unbalanced braces' });
    if (!/^[\p{L}\p{N}\-_/.#{}: ]+$/u.test(p))
      ctx.addIssue({ code: 'custom', message: 'letters, digits, spaces and - _ / . # only besides the placeholders' });
  });
export const NumberingUpdate = z
  .object({
    pattern: NumberingPattern.optional().meta({ description: 'e.g. RE-{YYYY}-{SEQ:5}' }),
    reset: NumberingReset.optional().meta({ description: 'when the sequence starts again at 1' }),
    next_value: z
      .number()
      .int()
      .min(1)
      .max(999_999_999_999)
      .optional()
      .meta({ description: 'the sequence value the next document gets (in the current period)' }),
  })
  .meta({ id: 'NumberingUpdate' });
export type NumberingUpdate = z.output<typeof NumberingUpdate>;
export const NumberingSequence = z
  .object({
    document_type: NumberingDocumentType,
    pattern: z.string(),
    reset: NumberingReset,
    next_value: z.number().int(),
    next_number: z.string().meta({ description: 'the number the next document would get now' }),
  })
  .meta({ id: 'NumberingSequence' });
