import { inflateSync } from 'node:zlib';
import { BASE_GLYPH_TEXT, baseGlyphs, cachedSubset, printable } from './fonts';
describe('printable', () => {
  it('keeps what DejaVu covers (Latin, Greek, Cyrillic, typographic quotes, €)', () => {
    const text = 'Müller Ñandú Ærøskøbing Œuvre „Zitat“ – € Ελλάδα Москва';
    expect(printable('sans', text)).toBe(text);
    expect(printable('serifBold', 'plain ASCII 123')).toBe('plain ASCII 123');
  });

  it('replaces characters without a glyph instead of drawing .notdef', () => {
    expect(printable('sans', '東京 GmbH')).toBe('?? GmbH');
    expect(printable('serif', 'a\tb\r\nc\u0007')).toBe('a b\nc?');
  });
});

describe('cachedSubset', () => {
  it('encodes each glyph list once and keeps recent ones', () => {
    let calls = 0;
    const encode = () => {
      calls++;
      return new Uint8Array([calls]);
    };
    const a = cachedSubset('serifBold', [0, 1, 2], encode);
    expect(cachedSubset('serifBold', [0, 1, 2], encode)).toBe(a);
    expect(inflateSync(a.deflated)).toEqual(Buffer.from(a.raw));
    expect(calls).toBe(1);
    expect(cachedSubset('serifBold', [0, 2, 1], encode)).not.toBe(a); // order matters
    expect(cachedSubset('serif', [0, 1, 2], encode)).not.toBe(a); // per font
    expect(calls).toBe(3);
    for (let i = 0; i < 20; i++) cachedSubset('serifBold', [0, 100 + i], encode);
    cachedSubset('serifBold', [0, 1, 2], encode); // evicted by then: encoded again
    expect(calls).toBe(24);
  });

  it('pre-includes only characters the fonts have', () => {
    for (const name of ['sans', 'sansBold', 'serif', 'serifBold'] as const) {
      expect(printable(name, BASE_GLYPH_TEXT)).toBe(BASE_GLYPH_TEXT);
      expect(baseGlyphs(name).every((g) => g.id > 0)).toBe(true);
    }
  });
});
