import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { formatAmount, formatDecimal, roundAmount, sumDecimals, toDecimal, toJsonNumber, toStorageString } from './decimal';

/** Reference rounding with BigInt: what the CEN XSLT does, round(abs(x) * 100) div 100, sign restored. */
function referenceRound(units: bigint, scale: number): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const div = 10n ** BigInt(scale - 2);
  let cents = abs / div;
  if ((abs % div) * 2n >= div) cents += 1n;
  const s = cents.toString().padStart(3, '0');
  const out = `${s.slice(0, -2)}.${s.slice(-2)}`;
  return neg && cents !== 0n ? `-${out}` : out;
}

function unitsToString(units: bigint, scale: number): string {
  const neg = units < 0n;
  const s = (neg ? -units : units).toString().padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, -scale)}.${s.slice(-scale)}`;
}

describe('toDecimal', () => {
  it('accepts decimal strings, finite numbers and Decimals', () => {
    expect(toDecimal('12.50').toFixed()).toBe('12.5');
    expect(toDecimal('.5').toFixed()).toBe('0.5');
    expect(toDecimal(0.1).toFixed()).toBe('0.1');
    expect(toDecimal(new Decimal('3')).toFixed()).toBe('3');
  });

  it.each(['', ' 1', '1,5', '1e3', '0x10', 'abc', '1.2.3', 'NaN', 'Infinity'])('rejects %j', (bad) => {
    expect(() => toDecimal(bad, 'quantity')).toThrow(/quantity must be a decimal string/);
  });

  it('rejects non-finite numbers and Decimals', () => {
    expect(() => toDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => toDecimal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toDecimal(new Decimal(Number.NaN))).toThrow(RangeError);
    expect(() => toDecimal(null as unknown as string)).toThrow(RangeError);
  });

  it('uses a Decimal of its own as it is, and copies one of another precision into its own', () => {
    const ours = toDecimal('12.345');
    expect(toDecimal(ours)).toBe(ours);
    const Short = Decimal.clone({ precision: 5 });
    const foreign = new Short('1.5');
    const copied = toDecimal(foreign);
    expect(copied).not.toBe(foreign);
    expect(copied.constructor).toBe(ours.constructor);
    // computed at our 40 digits, not at the foreign constructor's 5
    expect(copied.times('1.23456789').toFixed()).toBe('1.851851835');
  });

  it('does not change the global decimal.js configuration', () => {
    expect(Decimal.precision).toBe(20);
    expect(Decimal.rounding).toBe(Decimal.ROUND_HALF_UP);
    expect(new Decimal(1).dividedBy(3).toFixed().length).toBe(22);
  });
});

describe('roundAmount / formatAmount', () => {
  it.each([
    ['0.005', '0.01'],
    ['0.004999', '0.00'],
    ['2.675', '2.68'], // binary floats famously give 2.67 here
    ['1.005', '1.01'],
    ['-0.005', '-0.01'],
    ['-2.345', '-2.35'],
    ['10', '10.00'],
    ['0', '0.00'],
    ['-0.001', '0.00'],
  ])('%s -> %s', (input, expected) => {
    expect(formatAmount(input)).toBe(expected);
  });

  it('matches the EN 16931 validator rounding for any value with up to 8 decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), fc.integer({ min: 2, max: 8 }), (units, scale) => {
        const value = unitsToString(units, scale);
        expect(formatAmount(value)).toBe(referenceRound(units, scale));
      }),
    );
  });

  it('returns Decimals with at most 2 decimal places', () => {
    expect(roundAmount('1.23456').decimalPlaces()).toBe(2);
  });
});

describe('formatting helpers', () => {
  it('formatDecimal/toStorageString keep every digit without exponent notation', () => {
    expect(formatDecimal('0.00000001')).toBe('0.00000001');
    expect(formatDecimal('19.000')).toBe('19');
    expect(formatDecimal('-0')).toBe('0');
    expect(toStorageString(1.125)).toBe('1.125');
    expect(toStorageString('123456789012345678.1234')).toBe('123456789012345678.1234');
  });

  it('toJsonNumber converts exactly representable decimals and refuses lossy ones', () => {
    expect(toJsonNumber('12.50')).toBe(12.5);
    expect(toJsonNumber('0.1')).toBe(0.1);
    expect(() => toJsonNumber('12345678901234567.89')).toThrow(/cannot be represented/);
  });

  it('sumDecimals is exact where floats are not', () => {
    expect(sumDecimals(['0.1', '0.2']).toFixed()).toBe('0.3');
    expect(sumDecimals([]).toFixed()).toBe('0');
  });
});
