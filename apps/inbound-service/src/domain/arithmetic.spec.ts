import type { InboundContent } from '@inv/contracts';
import { checkArithmetic } from './arithmetic';

const base = (): InboundContent => ({
  preceding_invoices: [],
  notes: [],
  seller: { identifiers: [] },
  buyer: { identifiers: [] },
  lines: [
    { id: '1', quantity: '2', net_amount: '100.00', vat_category: 'S', vat_rate: '19', allowances_charges: [] },
    { id: '2', quantity: '1', net_amount: '50.00', vat_category: 'S', vat_rate: '7', allowances_charges: [] },
  ],
  allowances_charges: [{ charge: false, amount: '10.00', vat_category: 'S', vat_rate: '19' }],
  vat_breakdown: [
    { category: 'S', rate: '19', taxable_amount: '90.00', tax_amount: '17.10' },
    { category: 'S', rate: '7', taxable_amount: '50.00', tax_amount: '3.50' },
  ],
  totals: {
    line_total: '150.00',
    allowance_total: '10.00',
    tax_exclusive: '140.00',
    tax_total: '20.60',
    tax_inclusive: '160.60',
    payable: '160.60',
  },
  payment_means: [],
  attachments: [],
});

describe('checkArithmetic', () => {
  it('finds nothing in a consistent invoice', () => expect(checkArithmetic(base())).toEqual([]));

  it.each([
    ['line sum', (c: InboundContent) => (c.lines[0]!.net_amount = '101.00'), ['INB-ARITH-LINES', 'INB-ARITH-VAT-BASE']],
    ['allowances', (c: InboundContent) => (c.totals.allowance_total = '0.00'), ['INB-ARITH-ALLOWANCES', 'INB-ARITH-TAX-EXCLUSIVE']],
    [
      'total with VAT (BR-CO-15)',
      (c: InboundContent) => (c.totals.tax_inclusive = '170.60'),
      ['INB-ARITH-TAX-INCLUSIVE', 'INB-ARITH-PAYABLE'],
    ],
    ['VAT per rate', (c: InboundContent) => (c.vat_breakdown[0]!.tax_amount = '17.20'), ['INB-ARITH-VAT-TOTAL', 'INB-ARITH-VAT-RATE']],
    ['amount due', (c: InboundContent) => (c.totals.payable = '100.00'), ['INB-ARITH-PAYABLE']],
  ])('names a broken %s', (_name, breakIt, rules) => {
    const c = base();
    breakIt(c);
    expect(checkArithmetic(c).map((f) => f.rule)).toEqual(rules);
  });

  it('accepts one cent of rounding per VAT rate, and prepaid amounts and rounding in the amount due', () => {
    const c = base();
    c.vat_breakdown[0]!.tax_amount = '17.11';
    c.totals.tax_total = '20.61';
    c.totals.tax_inclusive = '160.61';
    c.totals.prepaid = '60.00';
    c.totals.rounding = '-0.01';
    c.totals.payable = '100.60';
    expect(checkArithmetic(c)).toEqual([]);
  });
});
