import type { InboundContent } from '@inv/contracts';
import { checkVatRates } from './vat-rates';

const content = (
  seller: string | undefined,
  buyer: string | undefined,
  rates: string[],
  dates: { issue?: string; delivery?: string },
): InboundContent => ({
  issue_date: dates.issue,
  delivery_date: dates.delivery,
  preceding_invoices: [],
  notes: [],
  seller: { identifiers: [], address: seller ? { country: seller } : undefined },
  buyer: { identifiers: [], address: buyer ? { country: buyer } : undefined },
  lines: [],
  allowances_charges: [],
  vat_breakdown: rates.map((rate) => ({ category: 'S', rate, taxable_amount: '100.00', tax_amount: '0.00' })),
  totals: {},
  payment_means: [],
  attachments: [],
});

describe('checkVatRates (received invoices)', () => {
  it('warns about 16 % from a German supplier in 2026, naming the rates in force', () => {
    const findings = checkVatRates(content('DE', 'DE', ['19', '16.00'], { issue: '2026-11-02' }));
    expect(findings).toEqual([
      {
        rule: 'INB-VAT-RATE',
        severity: 'warning',
        location: 'vat_breakdown[1].rate',
        message:
          '16.00 % is not a VAT rate of DE on 2026-11-02; the rates in force then are DE: 19 % (standard), 7 % (reduced) (date of supply: the issue date BT-2)',
        source: 'vat-rates',
      },
    ]);
  });

  it('accepts 16 % and 5 % for a supply in October 2020, even when invoiced later (delivery date BT-72)', () => {
    expect(checkVatRates(content('DE', 'DE', ['16', '5'], { issue: '2020-10-15' }))).toEqual([]);
    expect(checkVatRates(content('DE', 'DE', ['16'], { issue: '2021-02-01', delivery: '2020-10-30' }))).toEqual([]);
  });

  it('warns about a rate France or Italy does not have', () => {
    expect(checkVatRates(content('FR', 'FR', ['20', '19.6'], { issue: '2026-03-01' })).map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^19\.6 % is not a VAT rate of FR on 2026-03-01; the rates in force then are FR: 20 % \(standard\), 10 % \(reduced\)/,
      ),
    ]);
    expect(checkVatRates(content('IT', 'DE', ['21'], { issue: '2026-03-01' })).map((f) => f.message)).toEqual([
      expect.stringMatching(/^21 % is not a VAT rate of IT or DE on 2026-03-01; the rates in force then are IT: 22 % \(standard\)/),
    ]);
  });

  it('says nothing without a date, for a supplier outside the EU, or for other categories', () => {
    expect(checkVatRates(content('DE', 'DE', ['16'], {}))).toEqual([]);
    expect(checkVatRates(content('CH', 'DE', ['8.1'], { issue: '2026-03-01' }))).toEqual([]);
    expect(checkVatRates(content(undefined, 'DE', ['16'], { issue: '2026-03-01' }))).toEqual([]);
    const c = content('DE', 'DE', ['16'], { issue: '2026-03-01' });
    c.vat_breakdown[0]!.category = 'Z';
    expect(checkVatRates(c)).toEqual([]);
  });
});
