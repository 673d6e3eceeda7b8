import type { PositionDoc } from '../db/invoices';
import { presentTotals, totalsOf, vatOf } from './totals';

const p = (over: Partial<PositionDoc>): PositionDoc => ({
  id: 1,
  title: 't',
  quantity: '1',
  unitCode: 'C62',
  unitPrice: '0',
  taxRate: '0.19',
  taxTreatmentId: 'standard',
  ...over,
});

describe('invoice totals', () => {
  it('adds 19 % and 7 % lines exactly, with discounts', () => {
    const totals = totalsOf([
      p({ quantity: '3', unitPrice: '0.10' }), // 0.30 -> VAT 19 %
      p({ quantity: '1.5', unitPrice: '19.99', taxRate: '0.07', taxTreatmentId: 'reduced' }), // 29.985 -> 29.99
      p({ quantity: '2', unitPrice: '100', discountType: 'PERCENTAGE', discountValue: '10' }), // 180.00
      p({ quantity: '1', unitPrice: '50', discountType: 'FIXED_AMOUNT', discountValue: '5.5' }), // 44.50
    ]);
    expect(totals.lineNetTotal).toBe('254.79');
    expect(totals.vatBreakdown).toEqual([
      { category: 'S', rate: '19', taxableAmount: '224.80', taxAmount: '42.71' },
      { category: 'S', rate: '7', taxableAmount: '29.99', taxAmount: '2.10' },
    ]);
    expect(presentTotals(totals)).toMatchObject({ net_amount: 254.79, tax_amount: 44.81, gross_amount: 299.6 });
  });

  it('maps treatments to VAT categories', () => {
    expect(vatOf({ taxRate: '0', taxTreatmentId: 'intra_community' })).toMatchObject({ category: 'K', rate: '0' });
    expect(vatOf({ taxRate: '0', taxTreatmentId: 'standard' })).toMatchObject({ category: 'Z' });
    expect(vatOf({ taxRate: '0.19', taxTreatmentId: 'standard' })).toMatchObject({ category: 'S', rate: '19' });
  });
});
