import { z } from 'zod';
import { CompanyProfileUpdate, PaymentTermInput } from './company';
import { CustomerCreate } from './customers';
import { InvoiceCreate, PositionCreate } from './invoices';
import { safeText, stripUnsafeChars, unsafeCharIn } from './safe-text';

const line = safeText(z.string().trim().min(1).max(50));
const notes = safeText(z.string().max(200), { multiLine: true });
const issues = (schema: z.ZodType, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('safeText', () => {
  it('keeps ordinary text of any script, with the directional marks and joiners it needs', () => {
    for (const ok of [
      'Müller & Söhne GmbH',
      'Ελληνική Εταιρεία',
      'شركة\u200f الأمل',
      'אבג\u200e (ישראל)',
      'می\u200cخواهم',
      '👩\u200d💻 Studio',
    ])
      expect(line.parse(ok)).toBe(ok);
  });

  it.each([
    ['CR LF (lines of an e-mail)', 'Evil GmbH\r\nBcc: x@evil.example', 'U+000D at position 10'],
    ['LF', 'Evil\nGmbH', 'U+000A at position 5'],
    ['tab', 'a\tb', 'U+0009'],
    ['NUL', 'a\u0000b', 'U+0000'],
    ['C1 NEL', 'a\u0085b', 'U+0085'],
    ['right-to-left override', 'rechnung\u202Egpj.pdf', 'U+202E at position 9'],
    ['left-to-right embedding', '\u202Aabc', 'U+202A at position 1'],
    ['first strong isolate', 'a\u2068b', 'U+2068'],
    ['pop directional isolate', 'a\u2069', 'U+2069'],
    ['line separator', 'a\u2028b', 'U+2028'],
    ['byte order mark', 'a\ufeffb', 'U+FEFF'],
  ])('refuses %s, naming the character and where it is', (_what, value, named) => {
    const found = issues(line, value);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain(named);
    expect(found[0]!.message).toMatch(/control characters or bidirectional overrides/);
  });

  it('lets multi-line text keep line feeds and tabs, turns CR LF into LF, and still refuses the rest', () => {
    expect(notes.parse('Zeile 1\r\nZeile 2\r\tEnde')).toBe('Zeile 1\nZeile 2\n\tEnde');
    expect(issues(notes, 'ok\n\u202Eevil')[0]!.message).toContain('U+202E at position 4');
    expect(issues(notes, 'bell\u0007')[0]!.message).toContain('U+0007');
  });

  it('keeps the schema it wraps: optional, nullable, trim, bounds', () => {
    const optional = line.optional();
    expect(optional.parse(undefined)).toBeUndefined();
    expect(line.parse('  padded  ')).toBe('padded');
    expect(issues(line, '')[0]!.message).toMatch(/>=1|at least/i);
    expect(safeText(z.string()).nullable().parse(null)).toBeNull();
  });

  it('strips for names that are cleaned rather than refused', () => {
    expect(stripUnsafeChars('rechnung\u202Egpj.pdf')).toBe('rechnunggpj.pdf');
    expect(stripUnsafeChars('a\r\nb\tc', true)).toBe('a\nb\tc'); // CR goes, LF and tab stay
    expect(unsafeCharIn('plain')).toBeUndefined();
  });

  it('is applied to the fields that reach e-mails, PDFs and files, and the 400 names the field', () => {
    expect(issues(CompanyProfileUpdate, { trading_name: 'Evil\r\nX-Injected: 1' }).map((i) => i.path)).toEqual(['trading_name']);
    expect(
      issues(CompanyProfileUpdate, {
        legal_name: 'A\u202EB',
        contact_name: 'x\ny',
        address: { line1: 'a\u2066', postal_code: '1', city: 'c', country_code: 'DE' },
      }).map((i) => i.path),
    ).toEqual(['legal_name', 'address.line1', 'contact_name']);
    expect(issues(CustomerCreate, { organization_name: 'ACME\u202E', contact_type: 'B2B' }).map((i) => i.path)).toEqual([
      'organization_name',
    ]);
    expect(issues(CustomerCreate, { contact_type: 'B2C', first_name: 'A\rB', last_name: 'C' }).map((i) => i.path)).toEqual(['first_name']);
    expect(issues(InvoiceCreate, { customer_id: 1, note: 'line 1\nline 2\u202E' }).map((i) => i.path)).toEqual(['note']);
    expect(InvoiceCreate.parse({ customer_id: 1, note: 'line 1\r\nline 2' }).note).toBe('line 1\nline 2');
    expect(issues(PositionCreate, { title: 'Beratung\u2067', quantity: 1, unit_id: 'HUR', unit_net_amount: 1 }).map((i) => i.path)).toEqual(
      ['title'],
    );
    expect(issues(PaymentTermInput, { name: 'Net 30', days: 30, text_de: 'Zahlbar bis {due_date}\u202E' }).map((i) => i.path)).toEqual([
      'text_de',
    ]);
  });
});
