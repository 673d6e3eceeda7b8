import { z } from 'zod';
import { editDistance, unknownFields } from './unknown-fields';

const paths = (schema: z.ZodType, input: unknown) => unknownFields(schema, input).map((f) => [f.path, f.suggestion]);

describe('unknownFields', () => {
  const position = z.object({
    title: z.string(),
    tax_rate: z.number().optional(),
    discount: z.object({ percent: z.number(), days: z.number() }).nullable().optional(),
  });
  const invoice = z
    .object({
      customer_id: z.number(),
      meta: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
      positions: z.array(position).default([]),
      extra: z.object({ a: z.string() }).passthrough().optional(),
      amount: z.union([z.number(), z.string()]).transform(String).optional(),
    })
    .partial()
    .superRefine(() => undefined);

  it('finds misspelt members at every depth, with the closest known field', () => {
    expect(paths(invoice, { customer_id: 1, positions: [{ title: 'a' }, { title: 'b', tax_rat: 0.19 }], custmer_id: 2 })).toEqual([
      ['positions.1.tax_rat', 'tax_rate'],
      ['custmer_id', 'customer_id'],
    ]);
  });

  it('suggests the nested field for a flattened one, and the field in another case style', () => {
    expect(paths(position, { title: 'x', discount_percent: 2, discountDays: 10, TaxRate: 1 })).toEqual([
      ['discount_percent', 'discount.percent'],
      ['discountDays', 'discount.days'],
      ['TaxRate', 'tax_rate'],
    ]);
  });

  it('keeps records and passthrough objects open, and offers no suggestion for a name far from all', () => {
    expect(paths(invoice, { meta: { anything: { at: 'all' } }, extra: { a: 'x', b: 'y' }, favourite_colour: 'teal' })).toEqual([
      ['favourite_colour', undefined],
    ]);
  });

  it('walks the option of a union the input fits, and the one a discriminator names', () => {
    const reorder = z.union([z.array(z.number()), z.object({ position_ids: z.array(z.number()) }).transform((o) => o.position_ids)]);
    expect(paths(reorder, [1, 2])).toEqual([]);
    expect(paths(reorder, { position_ids: [1], x: 1 })).toEqual([['x', undefined]]);
    const status = z.discriminatedUnion('status', [
      z.object({ status: z.literal('SENT') }),
      z.object({ status: z.literal('PAID'), paid_date: z.string(), payment_reference: z.string().optional() }),
    ]);
    expect(paths(status, { status: 'PAID', paid_date: 'x', payment_refrence: 'y' })).toEqual([['payment_refrence', 'payment_reference']]);
    expect(paths(status, { status: 'SENT', paid_date: 'x' })).toEqual([['paid_date', undefined]]);
    expect(paths(z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })), { a: '', b: '', c: '' })).toEqual([
      ['c', undefined],
    ]);
  });

  it('ignores what is not an object where the schema expects one (the schema reports that)', () => {
    expect(paths(invoice, 'text')).toEqual([]);
    expect(paths(invoice, { positions: 'x', extra: [1] })).toEqual([]);
  });
});

describe('editDistance', () => {
  it('counts a swapped pair as one edit', () => {
    expect(editDistance('emial', 'email')).toBe(1);
    expect(editDistance('taxrat', 'taxrate')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
