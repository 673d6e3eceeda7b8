import type { InvoiceSnapshot } from '@inv/contracts';
import { domesticMixedRates, italianDomestic } from '@inv/einvoice';
import { VAT_RATE_RULE, vatRateWarnings } from './vat-rate-plausibility';

const withRates = (
  base: InvoiceSnapshot,
  rates: string[],
  dates: Partial<Pick<InvoiceSnapshot, 'issueDate' | 'deliveryDate' | 'period'>>,
): InvoiceSnapshot => ({
  ...base,
  period: undefined,
  deliveryDate: undefined,
  ...dates,
  lines: rates.map((rate, i) => ({
    ...base.lines[0]!,
    id: String(i + 1),
    vat: { category: 'S' as const, rate, treatment: 'standard' as const },
  })),
});

describe('vatRateWarnings', () => {
  const de = domesticMixedRates() as InvoiceSnapshot;

  it('a German domestic invoice at 16 % in 2026: one warning naming the positions and the rates in force', () => {
    expect(vatRateWarnings(withRates(de, ['19', '16', '16'], { issueDate: '2026-11-29', deliveryDate: '2026-11-29' }))).toEqual([
      {
        field: 'positions',
        rule: VAT_RATE_RULE,
        message:
          "positions 2, 3: 16 % is not a VAT rate of DE on 2026-11-29; the rates in force then are DE: 19 % (standard), 7 % (reduced) (date of supply: the service period's end, else the invoice date); check tax_rate (a fraction, e.g. 0.19)",
      },
    ]);
    expect(vatRateWarnings(withRates(de, ['5'], { issueDate: '2026-11-29' }))[0]!.field).toBe('positions[1].tax_rate');
  });

  it('16 % and 5 % for a service period in October 2020 (invoiced in 2026): no warning; 19 % then is one', () => {
    const period = { start: '2020-10-01', end: '2020-10-31' };
    expect(vatRateWarnings(withRates(de, ['16', '5'], { issueDate: '2026-11-29', period }))).toEqual([]);
    expect(vatRateWarnings(withRates(de, ['19'], { issueDate: '2026-11-29', period }))[0]!.message).toMatch(
      /^position 1: 19 % is not a VAT rate of DE on 2020-10-31; the rates in force then are DE: 16 % \(standard\), 5 % \(reduced\)/,
    );
  });

  it('an unknown rate in France or Italy is a warning, their own rates are not', () => {
    const it_ = italianDomestic() as InvoiceSnapshot;
    expect(vatRateWarnings(withRates(it_, ['22', '10', '4'], { issueDate: '2026-11-29' }))).toEqual([]);
    expect(vatRateWarnings(withRates(it_, ['21'], { issueDate: '2026-11-29' }))[0]!.message).toMatch(
      /21 % is not a VAT rate of IT on 2026-11-29/,
    );
    const fr = { ...it_, seller: { ...it_.seller, address: { ...it_.seller.address, countryCode: 'FR' } } };
    const frBuyer = { ...fr, buyer: { ...fr.buyer, address: { ...fr.buyer.address, countryCode: 'FR' } } };
    expect(vatRateWarnings(withRates(frBuyer, ['20', '5.5'], { issueDate: '2026-11-29' }))).toEqual([]);
    expect(vatRateWarnings(withRates(frBuyer, ['19'], { issueDate: '2026-11-29' }))[0]!.message).toMatch(
      /19 % is not a VAT rate of FR on 2026-11-29; the rates in force then are FR: 20 % \(standard\), 10 % \(reduced\), 5.5 % \(reduced\)/,
    );
  });

  it('exempt, reverse-charge and zero-rated lines are not judged', () => {
    const s = withRates(de, ['0'], { issueDate: '2026-11-29' });
    s.lines[0]!.vat = { category: 'E', rate: '0', treatment: 'exempt' };
    expect(vatRateWarnings(s)).toEqual([]);
  });
});
