import { printable } from './fonts';

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
