import fc from 'fast-check';
import { readableTerms } from './invoice';
import {
  formatAmount,
  formatDate,
  formatIban,
  formatMoney,
  formatPercent,
  formatPeriod,
  formatQuantity,
  formatUnitPrice,
  isZero,
} from './format';

const NBSP = '\u00a0';

/** Decimal strings with exactly two decimals, up to 15 integer digits (beyond float precision). */
const amount2 = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 17n - 1n })).map(([neg, cents]) => {
  const s = cents.toString().padStart(3, '0');
  return `${neg && cents !== 0n ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
});

describe('formatMoney', () => {
  it('formats German and English amounts', () => {
    expect(formatMoney('1234.56', 'de')).toBe(`1.234,56${NBSP}€`);
    expect(formatMoney('1234.56', 'en')).toBe('€1,234.56');
    expect(formatMoney('0', 'de')).toBe(`0,00${NBSP}€`);
    expect(formatMoney('-5.5', 'en')).toBe('-€5.50');
  });

  it('keeps every digit of amounts beyond float precision', () => {
    expect(formatMoney('12345678901234567.89', 'de')).toBe(`12.345.678.901.234.567,89${NBSP}€`);
  });

  it('rejects non-decimal input', () => {
    for (const bad of ['', '1,5', '1e3', 'abc', ' 1', 'NaN', '1.']) {
      expect(() => formatMoney(bad, 'de')).toThrow(RangeError);
    }
    expect(() => formatMoney(12 as unknown as string, 'de')).toThrow(RangeError);
  });

  it('round-trips: the German digits parse back to the same decimal (property)', () => {
    fc.assert(
      fc.property(amount2, (value) => {
        const printed = formatAmount(value, 'de');
        const parsed = printed.replace(/\./g, '').replace(',', '.').replace('\u2212', '-');
        expect(parsed).toBe(value.replace(/^(-?)0+(?=\d)/, '$1'));
      }),
    );
  });

  it('en and de differ only in separators (property)', () => {
    fc.assert(
      fc.property(amount2, (value) => {
        const de = formatAmount(value, 'de');
        const en = formatAmount(value, 'en');
        expect(en.replace(/,/g, '#').replace('.', ',').replace(/#/g, '.')).toBe(de);
      }),
    );
  });
});

describe('other number formats', () => {
  it('formats unit prices with 2 to 4 decimals', () => {
    expect(formatUnitPrice('12', 'de')).toBe('12,00');
    expect(formatUnitPrice('0.125', 'de')).toBe('0,125');
    expect(formatUnitPrice('1999.1234', 'en')).toBe('1,999.1234');
  });

  it('formats quantities without padding', () => {
    expect(formatQuantity('10', 'de')).toBe('10');
    expect(formatQuantity('1.5', 'de')).toBe('1,5');
    expect(formatQuantity('0.125', 'en')).toBe('0.125');
  });

  it('formats percentages per locale', () => {
    expect(formatPercent('19', 'de')).toBe(`19${NBSP}%`);
    expect(formatPercent('7.5', 'de')).toBe(`7,5${NBSP}%`);
    expect(formatPercent('19.00', 'en')).toBe('19%');
    expect(() => formatPercent('19%', 'en')).toThrow(RangeError);
  });

  it('detects zero amounts', () => {
    expect(isZero('0')).toBe(true);
    expect(isZero('0.00')).toBe(true);
    expect(isZero('-0.0')).toBe(true);
    expect(isZero('0.01')).toBe(false);
    expect(isZero('10')).toBe(false);
  });
});

describe('dates and bank data', () => {
  it('formats dates without going through a time zone', () => {
    expect(formatDate('2026-01-05', 'de')).toBe('05.01.2026');
    expect(formatDate('2026-01-05', 'en')).toBe('5 Jan 2026');
    expect(formatDate('2026-09-30', 'en')).toBe('30 Sep 2026');
    expect(formatDate('2026-09-30', 'de')).toBe('30.09.2026');
    expect(formatPeriod({ start: '2026-10-01', end: '2026-10-31' }, 'de')).toBe('01.10.2026 \u2013 31.10.2026');
    expect(formatPeriod({ start: '2026-10-01', end: '2026-10-31' }, 'en')).toBe('1 Oct 2026 \u2013 31 Oct 2026');
  });

  it('rejects malformed dates', () => {
    for (const bad of ['2026-13-01', '2026-1-5', '05.01.2026', '', '2026-00-10', '2026-01-32']) {
      expect(() => formatDate(bad, 'de')).toThrow(RangeError);
    }
  });

  it('groups IBANs in fours', () => {
    expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatIban('de89 3704 0044 0532 0130 00')).toBe('DE89 3704 0044 0532 0130 00');
  });
});

describe('payment terms in the PDF', () => {
  it("leaves out XRechnung's machine-readable Skonto lines and keeps the text", () => {
    expect(readableTerms('Zahlbar bis 25.12.2026. 2 % Skonto bis 05.12.2026.\n#SKONTO#TAGE=10#PROZENT=2.00#\n')).toBe(
      'Zahlbar bis 25.12.2026. 2 % Skonto bis 05.12.2026.',
    );
    expect(readableTerms('#SKONTO#TAGE=10#PROZENT=2.00#\n')).toBeUndefined();
    expect(readableTerms(undefined)).toBeUndefined();
    expect(readableTerms('Net 30 # not a machine line')).toBe('Net 30 # not a machine line');
  });
});
