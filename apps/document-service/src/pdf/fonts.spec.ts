import { inflateSync } from 'node:zlib';
import { BASE_GLYPH_TEXT, baseGlyphs, cachedSubset, LAYOUT_CACHE_LIMIT, printable, sharedLayoutCache, type FontName } from './fonts';
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

describe('sharedLayoutCache', () => {
  it('is one cache per font, shared by the documents', () => {
    expect(sharedLayoutCache('sans')).toBe(sharedLayoutCache('sans'));
    expect(sharedLayoutCache('sans')).not.toBe(sharedLayoutCache('sansBold'));
  });

  it("restarts every font's cache once it holds too many words, also when documents select their fonts in a fixed order", () => {
    // As the renderer does: each document selects its fonts in the same order, then lays out words never seen before
    // (its number, dates). With one use counter for all fonts, only one font's cache was ever restarted.
    const fonts: FontName[] = ['sans', 'sansBold', 'serif', 'serifBold'];
    const seen = new Map<FontName, { cache: object; words: number; restarts: number }>();
    let largest = 0;
    for (let doc = 0; doc < 3_000; doc++) {
      for (const font of fonts) {
        const cache = sharedLayoutCache(font);
        let s = seen.get(font);
        if (!s || s.cache !== cache) {
          s = { cache, words: Object.keys(cache).length, restarts: (s?.restarts ?? -1) + 1 };
          seen.set(font, s);
        }
        cache[`RE-${doc}-a`] = 1;
        cache[`RE-${doc}-b`] = 1;
        s.words += 2;
        largest = Math.max(largest, s.words);
      }
    }
    // restarted at most 64 uses (128 words) after passing the limit
    expect(largest).toBeLessThanOrEqual(LAYOUT_CACHE_LIMIT + 2 * 64);
    for (const font of fonts) expect(seen.get(font)!.restarts).toBeGreaterThanOrEqual(2);
    for (const font of fonts) expect(Object.keys(sharedLayoutCache(font)).length).toBeLessThan(LAYOUT_CACHE_LIMIT);
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
