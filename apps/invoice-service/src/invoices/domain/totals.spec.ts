import type { PositionDoc } from './invoice';
import { presentTotals } from '../../http/presenters';
import { totalsOf, vatOf } from './totals';

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

  it('totals a list once: the same list answers the same totals, a list is frozen once totalled', () => {
    const list = [p({ quantity: '2', unitPrice: '10' })];
    const first = totalsOf(list);
    expect(totalsOf(list)).toBe(first);
    // a change is a new list, with its own totals
    const changed = [...list, p({ id: 2, quantity: '1', unitPrice: '5' })];
    expect(totalsOf(changed).lineNetTotal).toBe('25.00');
    expect(first.lineNetTotal).toBe('20.00');
    // a change in place fails loudly instead of leaving stale totals behind
    expect(() => list.push(p({ id: 3 }))).toThrow(TypeError);
    expect(() => {
      (list[0] as { quantity: string }).quantity = '3';
    }).toThrow(TypeError);
    expect(() => {
      (first.vatBreakdown[0] as { taxAmount: string }).taxAmount = '0.00';
    }).toThrow(TypeError);
    // a list that cannot be totalled is not kept (and not frozen)
    const bad = [p({ quantity: '1', unitPrice: '-1' })];
    expect(() => totalsOf(bad)).toThrow(RangeError);
    expect(Object.isFrozen(bad)).toBe(false);
  });

  it('maps treatments to VAT categories', () => {
    expect(vatOf({ taxRate: '0', taxTreatmentId: 'intra_community' })).toMatchObject({ category: 'K', rate: '0' });
    expect(vatOf({ taxRate: '0', taxTreatmentId: 'standard' })).toMatchObject({ category: 'Z' });
    expect(vatOf({ taxRate: '0.19', taxTreatmentId: 'standard' })).toMatchObject({ category: 'S', rate: '19' });
  });
});
