import fc from 'fast-check';
import { toAscii, toLatin1 } from './latin';

describe('toLatin1', () => {
  it('keeps Basic Latin and Latin-1 letters (umlauts, accents, ß)', () => {
    expect(toLatin1('Müller Straße, Crème brûlée, Ñandú')).toBe('Müller Straße, Crème brûlée, Ñandú');
  });

  it('maps typographic characters and strips other accents', () => {
    expect(toLatin1('“Quote” – ‘x’ … 5 €')).toBe('"Quote" - \'x\' ... 5 EUR');
    expect(toLatin1('Łódź Dvořák')).toBe('?ódz Dvorák');
    expect(toLatin1('日本')).toBe('??');
  });

  it('truncates to a maximum length', () => {
    expect(toLatin1('abcdef', 3)).toBe('abc');
  });

  it('always returns Latin-1 only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        for (const ch of toLatin1(s)) expect(ch.codePointAt(0)!).toBeLessThanOrEqual(0xff);
      }),
    );
  });
});

describe('toAscii', () => {
  it('reduces to Basic Latin', () => {
    expect(toAscii('Nº 12/ä')).toBe('N? 12/a');
    expect(toAscii('RE-2026-0001', 5)).toBe('RE-20');
  });
});
