/**
 * FatturaPA restricts most texts to Basic Latin + Latin-1 Supplement (U+0000-U+00FF). Umlauts and
 * accents are inside that range and stay; typographic punctuation and other scripts are mapped to the
 * nearest ASCII, and anything still outside becomes "?", so the XSD never rejects a name.
 */
const REPLACEMENTS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u20AC': 'EUR',
  '\u00A0': ' ',
  '\u2022': '*',
};

export function toLatin1(text: string, maxLength?: number): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code <= 0xff && (code >= 0x20 || ch === '\n' || ch === '\t')) out += ch;
    else if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else {
      // e.g. "ő" -> "o" + combining accent -> "o"
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += [...base].every((c) => c.codePointAt(0)! <= 0xff) && base.length > 0 ? base : '?';
    }
  }
  out = out.trim();
  return maxLength !== undefined && out.length > maxLength ? out.slice(0, maxLength) : out;
}

/** Only Basic Latin (ASCII), for FatturaPA's String20Type fields such as the invoice number. */
export function toAscii(text: string, maxLength?: number): string {
  const out = toLatin1(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?');
  return maxLength !== undefined && out.length > maxLength ? out.slice(0, maxLength) : out;
}
