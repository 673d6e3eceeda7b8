import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';

/**
 * DejaVu TrueType fonts from the `dejavu-fonts-ttf` package (full Latin-1/Latin Extended coverage:
 * German, French, Italian, Spanish names). PDF/A needs every font embedded, so the 14 standard PDF
 * fonts are never used.
 *
 * Each font is parsed once per process with fontkit and the parsed object is handed to pdfkit:
 * given a Buffer, pdfkit re-parses the whole TTF for every document (~45 ms of a ~58 ms render).
 * pdfkit still builds a fresh subset per document, so sharing the parsed font is safe.
 */
const FILES = {
  sans: 'DejaVuSansCondensed.ttf',
  sansBold: 'DejaVuSansCondensed-Bold.ttf',
  serif: 'DejaVuSerifCondensed.ttf',
  serifBold: 'DejaVuSerifCondensed-Bold.ttf',
} as const;

export type FontName = keyof typeof FILES;

/** The part of a fontkit font pdfkit relies on (it duck-types on `layout`). */
export type ParsedFont = fontkit.Font;

const loaded = new Map<FontName, ParsedFont>();

function fontPath(file: string): string {
  // Resolve through the package so hoisting or a different cwd does not matter.
  return require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
}

export function loadFont(name: FontName): ParsedFont {
  let font = loaded.get(name);
  if (!font) {
    const parsed = fontkit.create(readFileSync(fontPath(FILES[name])));
    if (!('layout' in parsed)) throw new Error(`${FILES[name]} is a font collection, expected a single font`);
    font = parsed;
    loaded.set(name, font);
  }
  return font;
}

/** Parse every font up front (service start), so the first request does not pay for it. */
export function preloadFonts(): void {
  for (const name of Object.keys(FILES) as FontName[]) loadFont(name);
}

/**
 * Text layout (shaping with fontkit) is the other big per-document cost: pdfkit caches the layout of
 * each word, but per document. The layout of a word depends only on the font, and pdfkit never
 * mutates a cached run (it copies positions before adjusting them), so one cache per font is shared
 * by all documents. It is dropped and restarted once it holds too many entries, so a long-running
 * service does not grow without bound. An entry takes about 1.2 KB of heap, and every invoice brings words
 * never seen before (its number, dates): at the former 20,000 entries per font the renderer's live heap kept
 * growing by ~2.5 MB per 1,000 invoices (47.6 MB after 3,000 renders, 42.6 at 2,000 entries), towards ~24 MB
 * per font before the first reset (RSS flat after warm-up). At 2,000 the words every document has
 * are laid out again after each reset, which costs nothing measurable.
 */
export const LAYOUT_CACHE_LIMIT = 2_000;
/** How often a font's cache is counted: every LAYOUT_CACHE_CHECK_EVERY-th document that uses the font. */
const LAYOUT_CACHE_CHECK_EVERY = 64;
const layoutCaches = new Map<FontName, { entries: Record<string, unknown>; uses: number }>();

/**
 * The font's shared layout cache, a new one once the current holds more than LAYOUT_CACHE_LIMIT words. Each font
 * counts its own uses: with one counter for all fonts, a document selecting its fonts in a fixed order (regular,
 * then bold) made every 64th call fall on the same font, so only that font's cache was ever reset and the others
 * grew without bound (~0.6 KB of heap per render and font; fonts.spec.ts).
 */
export function sharedLayoutCache(name: FontName): Record<string, unknown> {
  let cache = layoutCaches.get(name);
  // Counting the keys is O(n); doing it every 64th use keeps it negligible.
  if (!cache || (++cache.uses % LAYOUT_CACHE_CHECK_EVERY === 0 && Object.keys(cache.entries).length > LAYOUT_CACHE_LIMIT)) {
    cache = { entries: Object.create(null) as Record<string, unknown>, uses: 0 };
    layoutCaches.set(name, cache);
  }
  return cache.entries;
}

const coverage = new Map<FontName, Map<number, boolean>>();
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Replaces characters the font has no glyph for with "?" (and tabs / carriage returns with spaces /
 * nothing). PDF/A forbids references to the .notdef glyph, which is what an uncovered character
 * (e.g. CJK in a customer name; DejaVu covers Latin, Greek and Cyrillic) would otherwise produce.
 */
export function printable(name: FontName, text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text; // DejaVu covers all of ASCII
  let known = coverage.get(name);
  if (!known) {
    known = new Map();
    coverage.set(name, known);
  }
  const font = loadFont(name);
  let out = '';
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === '\n') {
      out += ch;
      continue;
    }
    if (ch === '\t') {
      out += ' ';
      continue;
    }
    const cp = ch.codePointAt(0)!;
    let has = known.get(cp);
    if (has === undefined) {
      has = cp >= 0x20 && font.hasGlyphForCodePoint(cp);
      known.set(cp, has);
    }
    out += has ? ch : '?';
  }
  return out;
}

/**
 * Every document's font subset starts with these characters, in this order: ASCII, the letters of
 * German, French, Italian and Spanish and the typography the renderer prints. A document that uses
 * nothing else then has exactly the same subset as the previous one, and its font program
 * (fontkit's subsetting plus deflate, together ~40 % of a render) comes from `cachedSubset` instead
 * of being built again. Costs ~10 KB per font in the PDF.
 */
const BASE_CHARS =
  ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~' +
  'ÄÖÜäöüßÀÂÆÇÉÈÊËÎÏÔŒÙÛŸàâæçéèêëîïôœùûÿÁÍÑÓÚáíñóú¿¡ÌÒìò' +
  '\u00a0\u00b7\u00b2\u00b3\u20ac\u2013\u2014\u201e\u201c\u201d\u2018\u2019\u201a\u2026\u2212\u2192\u00a7\u00b0';
export const BASE_GLYPH_TEXT = [...BASE_CHARS].join(' ');

export interface BaseGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

const baseGlyphCache = new Map<FontName, BaseGlyph[]>();

/** The glyphs of BASE_CHARS in a font (what pdfkit's layout yields for each single character). */
export function baseGlyphs(name: FontName): BaseGlyph[] {
  let glyphs = baseGlyphCache.get(name);
  if (!glyphs) {
    const font = loadFont(name);
    glyphs = [...BASE_CHARS].map((ch) => {
      const glyph = font.glyphForCodePoint(ch.codePointAt(0)!);
      return { id: glyph.id, advanceWidth: glyph.advanceWidth, codePoints: glyph.codePoints };
    });
    baseGlyphCache.set(name, glyphs);
  }
  return glyphs;
}

export interface EncodedSubset {
  raw: Uint8Array;
  /** The same bytes deflated the way pdfkit would (zlib defaults), for a /FlateDecode stream. */
  deflated: Uint8Array;
}

const SUBSETS_PER_FONT = 16;
const subsetCache = new Map<FontName, Map<string, EncodedSubset>>();

/**
 * Encoded font subsets by glyph list. The encoding depends only on the font and the ordered glyph
 * ids, so it can be reused; a few recent variants are kept per font (least recently used dropped).
 */
export function cachedSubset(name: FontName, glyphs: readonly number[], encode: () => Uint8Array): EncodedSubset {
  let cache = subsetCache.get(name);
  if (!cache) {
    cache = new Map();
    subsetCache.set(name, cache);
  }
  const key = glyphs.join(',');
  let entry = cache.get(key);
  if (entry) {
    cache.delete(key); // re-insert: Map order is the recency order
  } else {
    const raw = encode();
    entry = { raw, deflated: deflateSync(raw) };
    if (cache.size >= SUBSETS_PER_FONT) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, entry);
  return entry;
}
