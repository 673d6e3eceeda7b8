import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { computeTotals, totalsToJson, type TotalsLineInput } from './totals';

const D = Decimal.clone({ precision: 50 });

/** Independent re-check of the EN 16931 rules on a result, in the validator's own terms. */
function checkRules(lines: readonly TotalsLineInput[], t: ReturnType<typeof computeTotals>): void {
  const sum = (xs: string[]) => xs.reduce((a, x) => a.plus(x), new D(0));
  // every amount has at most 2 decimals
  for (const a of [t.lineNetTotal, t.taxExclusiveTotal, t.vatTotal, t.taxInclusiveTotal, t.amountDue]) {
    expect(a).toMatch(/^-?\d+\.\d\d$/);
  }
  expect(sum(t.lines.map((l) => l.net)).equals(t.lineNetTotal)).toBe(true); // BR-CO-10
  expect(new D(t.lineNetTotal).equals(t.taxExclusiveTotal)).toBe(true); // BR-CO-13
  expect(sum(t.vatBreakdown.map((v) => v.taxAmount)).equals(t.vatTotal)).toBe(true); // BR-CO-14
  expect(new D(t.taxExclusiveTotal).plus(t.vatTotal).equals(t.taxInclusiveTotal)).toBe(true); // BR-CO-15
  expect(new D(t.taxInclusiveTotal).minus(t.prepaidAmount).equals(t.amountDue)).toBe(true); // BR-CO-16
  for (const v of t.vatBreakdown) {
    // BR-S/AE/K/G/E/O-08: taxable = sum of line nets of that category and rate
    const nets = lines
      .map((l, i) => ({ l, net: t.lines[i]!.net }))
      .filter(({ l }) => l.vat.category === v.category && new D(l.vat.rate).equals(v.rate))
      .map(({ net }) => net);
    expect(sum(nets).equals(v.taxableAmount)).toBe(true);
    // BR-CO-17 / BR-S-09: tax = round(taxable * rate / 100, 2) as the CEN XSLT computes it
    const abs = new D(v.taxableAmount).abs().times(v.rate).div(100).times(100);
    const expected = abs.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).div(100);
    expect(new D(v.taxAmount).abs().equals(expected)).toBe(true);
    if (v.category !== 'S') expect(v.taxAmount).toBe('0.00'); // BR-AE/K/G/E/O-09 with rate 0
  }
  // the line net is within the Peppol R120 slack of qty x price - allowance
  lines.forEach((l, i) => {
    const lt = t.lines[i]!;
    const exact = new D(l.quantity.toString()).times(l.unitPrice.toString()).minus(lt.allowance);
    expect(exact.minus(lt.net).abs().lessThanOrEqualTo('0.005')).toBe(true);
  });
}

describe('computeTotals', () => {
  it('computes a domestic invoice with 19 % and 7 % lines and both discount kinds', () => {
    const lines: TotalsLineInput[] = [
      { quantity: '10', unitPrice: '95.00', vat: { category: 'S', rate: '19' } },
      { quantity: '2.5', unitPrice: '12.34', discount: { type: 'PERCENTAGE', value: '10' }, vat: { category: 'S', rate: '19' } },
      { quantity: '3', unitPrice: '19.99', discount: { type: 'FIXED_AMOUNT', value: '5' }, vat: { category: 'S', rate: '7' } },
    ];
    const t = computeTotals({ lines });
    expect(t.lines).toEqual([
      { gross: '950', grossRounded: '950.00', allowance: '0.00', net: '950.00' },
      { gross: '30.85', grossRounded: '30.85', allowance: '3.09', allowancePercent: '10', net: '27.76' },
      { gross: '59.97', grossRounded: '59.97', allowance: '5.00', net: '54.97' },
    ]);
    expect(t.vatBreakdown).toEqual([
      { category: 'S', rate: '19', taxableAmount: '977.76', taxAmount: '185.77' },
      { category: 'S', rate: '7', taxableAmount: '54.97', taxAmount: '3.85' },
    ]);
    expect(t).toMatchObject({
      lineNetTotal: '1032.73',
      taxExclusiveTotal: '1032.73',
      vatTotal: '189.62',
      taxInclusiveTotal: '1222.35',
      prepaidAmount: '0.00',
      amountDue: '1222.35',
    });
    checkRules(lines, t);
  });

  it('rounds VAT per category, not per line', () => {
    // 3 lines of 0.05 at 19 %: per line 0.0095 -> 0.01 each (0.03), per category 0.15*0.19 = 0.0285 -> 0.03;
    // 7 lines of 0.05: per line 0.07, per category 0.35*0.19 = 0.0665 -> 0.07. Pick a case where they differ:
    const lines: TotalsLineInput[] = Array.from({ length: 10 }, () => ({
      quantity: '1',
      unitPrice: '0.03',
      vat: { category: 'S', rate: '19' },
    }));
    const t = computeTotals({ lines });
    expect(t.vatBreakdown[0]).toEqual({ category: 'S', rate: '19', taxableAmount: '0.30', taxAmount: '0.06' });
    expect(t.vatTotal).toBe('0.06'); // per line it would be 10 x 0.01 = 0.10
  });

  it('keeps categories with the same rate apart and normalises rate spellings', () => {
    const t = computeTotals({
      lines: [
        { quantity: 1, unitPrice: 100, vat: { category: 'AE', rate: '0' } },
        { quantity: 1, unitPrice: 50, vat: { category: 'K', rate: '0.00' } },
        { quantity: 1, unitPrice: 10, vat: { category: 'S', rate: '19.00' } },
        { quantity: 1, unitPrice: 10, vat: { category: 'S', rate: 19 } },
      ],
    });
    expect(t.vatBreakdown.map((v) => [v.category, v.rate, v.taxableAmount, v.taxAmount])).toEqual([
      ['AE', '0', '100.00', '0.00'],
      ['K', '0', '50.00', '0.00'],
      ['S', '19', '20.00', '3.80'],
    ]);
  });

  it('handles 3-decimal quantities and 4-decimal prices', () => {
    const t = computeTotals({ lines: [{ quantity: '1.125', unitPrice: '0.3333', vat: { category: 'S', rate: '19' } }] });
    expect(t.lines[0]).toMatchObject({ gross: '0.3749625', grossRounded: '0.37', net: '0.37' });
    expect(t.vatBreakdown[0]).toMatchObject({ taxableAmount: '0.37', taxAmount: '0.07' });
  });

  it('subtracts prepaid amounts from the amount due', () => {
    const t = computeTotals({ lines: [{ quantity: 1, unitPrice: 100, vat: { category: 'S', rate: 19 } }], prepaidAmount: '19.004' });
    expect(t).toMatchObject({ taxInclusiveTotal: '119.00', prepaidAmount: '19.00', amountDue: '100.00' });
  });

  it('returns zero totals for no lines', () => {
    const t = computeTotals({ lines: [] });
    expect(t).toMatchObject({ lines: [], vatBreakdown: [], lineNetTotal: '0.00', amountDue: '0.00' });
  });

  it.each([
    [{ quantity: 'x', unitPrice: '1', vat: { category: 'S', rate: '19' } }, /lines\[0\]\.quantity/],
    [{ quantity: '1', unitPrice: '-1', vat: { category: 'S', rate: '19' } }, /BR-27/],
    [{ quantity: '1', unitPrice: '1', vat: { category: 'S', rate: '-1' } }, /rate must not be negative/],
    [{ quantity: '1', unitPrice: '1', vat: { category: '', rate: '0' } }, /category is required/],
    [{ quantity: '1', unitPrice: '10', discount: { type: 'PERCENTAGE', value: '101' }, vat: { category: 'S', rate: '19' } }, /at most 100/],
    [
      { quantity: '1', unitPrice: '10', discount: { type: 'PERCENTAGE', value: '-1' }, vat: { category: 'S', rate: '19' } },
      /not be negative/,
    ],
    [
      { quantity: '1', unitPrice: '10', discount: { type: 'FIXED_AMOUNT', value: '10.01' }, vat: { category: 'S', rate: '19' } },
      /exceeds the line amount/,
    ],
    [
      { quantity: '1', unitPrice: '10', discount: { type: 'BOGUS', value: '1' }, vat: { category: 'S', rate: '19' } },
      /PERCENTAGE or FIXED_AMOUNT/,
    ],
  ])('rejects bad line %#', (line, message) => {
    expect(() => computeTotals({ lines: [line as TotalsLineInput] })).toThrow(message);
  });

  it('lets a 100 % or full fixed discount bring a line to zero', () => {
    const t = computeTotals({
      lines: [
        { quantity: '2', unitPrice: '10', discount: { type: 'PERCENTAGE', value: '100' }, vat: { category: 'S', rate: '19' } },
        { quantity: '2', unitPrice: '10', discount: { type: 'FIXED_AMOUNT', value: '20' }, vat: { category: 'S', rate: '19' } },
      ],
    });
    expect(t.lines.map((l) => l.net)).toEqual(['0.00', '0.00']);
    expect(t.amountDue).toBe('0.00');
  });

  it('handles negative quantities (returns) with a fixed discount of the same sign', () => {
    const lines: TotalsLineInput[] = [
      { quantity: '-2', unitPrice: '10', discount: { type: 'FIXED_AMOUNT', value: '5' }, vat: { category: 'S', rate: '19' } },
      { quantity: '5', unitPrice: '10', vat: { category: 'S', rate: '19' } },
    ];
    const t = computeTotals({ lines });
    expect(t.lines[0]).toMatchObject({ allowance: '-5.00', net: '-15.00' });
    checkRules(lines, t);
  });
});

describe('totalsToJson', () => {
  it('turns every decimal string into the same number', () => {
    const t = computeTotals({
      lines: [
        { quantity: '2.5', unitPrice: '12.34', discount: { type: 'PERCENTAGE', value: '10' }, vat: { category: 'S', rate: '19' } },
        { quantity: '1', unitPrice: '0.1', vat: { category: 'S', rate: '7' } },
      ],
    });
    const j = totalsToJson(t);
    expect(j.lines[0]).toEqual({ gross: 30.85, grossRounded: 30.85, allowance: 3.09, allowancePercent: 10, net: 27.76 });
    expect(j.lines[1]).toEqual({ gross: 0.1, grossRounded: 0.1, allowance: 0, net: 0.1 });
    expect(j.vatBreakdown).toEqual([
      { category: 'S', rate: 19, taxableAmount: 27.76, taxAmount: 5.27 },
      { category: 'S', rate: 7, taxableAmount: 0.1, taxAmount: 0.01 },
    ]);
    expect(j).toMatchObject({ lineNetTotal: 27.86, vatTotal: 5.28, taxInclusiveTotal: 33.14, amountDue: 33.14 });
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
  });
});

describe('computeTotals properties', () => {
  const decimalString = (maxUnits: number, scale: number) =>
    fc.integer({ min: 0, max: maxUnits }).map((u) => (u / 10 ** scale).toFixed(scale));
  const category = fc.constantFrom(
    { category: 'S', rate: '19' },
    { category: 'S', rate: '7' },
    { category: 'AE', rate: '0' },
    { category: 'K', rate: '0' },
    { category: 'G', rate: '0' },
    { category: 'E', rate: '0' },
    { category: 'O', rate: '0' },
  );
  const line: fc.Arbitrary<TotalsLineInput> = fc
    .record({
      quantity: decimalString(10_000_000, 3).filter((q) => q !== '0.000'),
      unitPrice: decimalString(100_000_000, 4),
      vat: category,
      discount: fc.option(
        fc.oneof(
          decimalString(10_000, 2).map((value) => ({ type: 'PERCENTAGE' as const, value })),
          fc.double({ min: 0, max: 1, noNaN: true }).map((f) => ({ type: 'FIXED_AMOUNT' as const, value: f })),
        ),
        { nil: undefined },
      ),
    })
    .map(({ quantity, unitPrice, vat, discount }) => {
      if (discount?.type !== 'FIXED_AMOUNT') return { quantity, unitPrice, vat, ...(discount ? { discount } : {}) };
      // a fixed discount between 0 and the line gross, in cents
      const gross = new D(quantity).times(unitPrice).toDecimalPlaces(2, Decimal.ROUND_DOWN);
      const value = gross
        .times(discount.value as number)
        .toDecimalPlaces(2, Decimal.ROUND_DOWN)
        .toFixed(2);
      return { quantity, unitPrice, vat, discount: { type: 'FIXED_AMOUNT' as const, value } };
    });

  it('satisfies BR-CO-10..17 and the category rules for random invoices', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (lines) => {
        checkRules(lines, computeTotals({ lines }));
      }),
      { numRuns: 300 },
    );
  });

  it('satisfies the rules for 200-line invoices', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 200, maxLength: 200 }), (lines) => {
        const t = computeTotals({ lines });
        expect(t.lines).toHaveLength(200);
        checkRules(lines, t);
      }),
      { numRuns: 20 },
    );
  });

  it('does not depend on line order', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), (lines) => {
        const a = computeTotals({ lines });
        const b = computeTotals({ lines: [...lines].reverse() });
        expect(b.taxInclusiveTotal).toBe(a.taxInclusiveTotal);
        expect(b.vatTotal).toBe(a.vatTotal);
      }),
    );
  });
});
